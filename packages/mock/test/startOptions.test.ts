// What a test suite's first week passes to startMockPlatform and url(): each case was a raw Node
// error, a server on a pipe named after the value, or a URL off the mock (h/attack, round 2).
import { existsSync, rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MockPlatformError, startMockPlatform, type MockPlatform } from '@platform-embed/mock';

const started: MockPlatform[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.close()));
});
const start = async (options: Parameters<typeof startMockPlatform>[0] = {}) => {
  const platform = await startMockPlatform({ host: '127.0.0.1', ...options });
  started.push(platform);
  return platform;
};
const refusal = async (promise: Promise<unknown>) => {
  try {
    const value = await promise;
    if (value && typeof (value as MockPlatform).close === 'function') started.push(value as MockPlatform);
    return 'started';
  } catch (error) {
    return error instanceof MockPlatformError ? { code: error.code, message: error.message } : { raw: String(error) };
  }
};

describe('startMockPlatform: a port it cannot listen on is refused, naming the port', () => {
  it.each<[string, unknown]>([
    ['NaN (was RangeError ERR_SOCKET_BAD_PORT)', Number.NaN],
    ['-1 (was RangeError ERR_SOCKET_BAD_PORT)', -1],
    ['70000 (was RangeError ERR_SOCKET_BAD_PORT)', 70000],
    ['1.5 (was RangeError ERR_SOCKET_BAD_PORT)', 1.5],
    ['"abc" (was: listening on a pipe named abc, origin http://127.0.0.1:undefined)', 'abc'],
    ['"" (an unset environment variable)', ''],
  ])('%s', async (_, port) => {
    const cwdPipe = 'abc';
    expect(await refusal(startMockPlatform({ host: '127.0.0.1', port: port as number }))).toEqual({
      code: 'invalid-option',
      message: expect.stringMatching(/^port must be a whole number from 0 to 65535, 0 for a free one \(got /),
    });
    if (existsSync(cwdPipe)) rmSync(cwdPipe);
  });

  it('a port in use: invalid-option saying so, the cause kept (was a raw EADDRINUSE)', async () => {
    const first = await start();
    const port = Number(new URL(first.origin).port);
    let error: unknown;
    await startMockPlatform({ host: '127.0.0.1', port }).catch((e: unknown) => (error = e));
    expect(error).toBeInstanceOf(MockPlatformError);
    expect(error).toMatchObject({
      code: 'invalid-option',
      message: `port ${port} is in use on 127.0.0.1: stop what listens there, or pass port 0 for a free one`,
    });
    expect((error as Error).cause).toMatchObject({ code: 'EADDRINUSE' });
  });

  it('a host that is no address of this machine: invalid-option naming it (was a raw ENOTFOUND)', async () => {
    expect(await refusal(startMockPlatform({ host: 'no such host' }))).toEqual({
      code: 'invalid-option',
      message: 'host "no such host" is not an address of this machine: pass localhost, 127.0.0.1 or 0.0.0.0',
    });
  });

  it('a port as a string of digits (an environment variable) and 0 are used', async () => {
    const free = await start({ port: 0 });
    const port = Number(new URL(free.origin).port);
    await free.close();
    started.splice(0);
    expect((await start({ port: String(port) as unknown as number })).origin).toBe(`http://127.0.0.1:${port}`);
  });
});

describe('url(): a path on the mock, never another origin', () => {
  it.each([
    ['//evil.example/x (was http://evil.example/x)', '//evil.example/x'],
    ['an absolute URL of another origin', 'https://evil.example/x'],
    ['a backslash path (read as //)', '\\\\evil.example/x'],
  ])('%s: invalid-option', async (_, path) => {
    const platform = await start();
    expect(() => platform.url(path)).toThrow(MockPlatformError);
    expect(() => platform.url(path)).toThrow(
      /url\(\) takes a path on the mock, such as "\/embed\/chat" \(got .*, which names another origin\)/,
    );
  });

  it.each(['/embed/chat', 'embed/chat', '?x=1', ''])('%j is on the mock', async (path) => {
    const platform = await start();
    expect(platform.url(path).startsWith(`${platform.origin}/`)).toBe(true);
  });
});
