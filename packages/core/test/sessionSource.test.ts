import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { MAX_RETRY_AFTER, embedDashboard, listenerCount, type Diagnostic, type EmbedHandle, type SessionSource } from '../src/index';
import { BASE, READY, deliver, envelope, flush, freshId } from './helpers';

/*
 * What a `session` function may return and how each answer is read: the id, generate-session's
 * `{ sessionId }` body, or the `Response` of its fetch (a 2xx with `{ sessionId }`; a 5xx, 429 or
 * 408 renewable, after its Retry-After; another 4xx not renewable). After a route answered
 * "wait", the page's calls to it wait and go one at a time. And the single-use record is one per
 * page, whatever the copies of the SDK on it.
 */

let handles: EmbedHandle[] = [];
const mount = (session: SessionSource, options: Record<string, unknown> = {}) => {
  const diagnostics: Diagnostic[] = [];
  const h = embedDashboard({
    container: '#c',
    baseUrl: BASE,
    publicId: 'sales',
    session,
    onDiagnostic: (d) => diagnostics.push(d),
    ...options,
  });
  handles.push(h);
  return Object.assign(h, { diagnostics });
};
const json = (body: unknown, init: ResponseInit & { url?: string } = {}) => {
  const response = new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' }, ...init });
  if (init.url) Object.defineProperty(response, 'url', { value: init.url });
  return response;
};
const retries = (diagnostics: Diagnostic[]) =>
  diagnostics.flatMap((d) => (d.kind == 'retry' ? [[d.attempt, d.delay, d.error.message]] : []));
// Lets the session call, its response body and the mount run (fetch bodies resolve in macrotasks).
const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await flush();
    await new Promise((r) => setTimeout(r, 0));
  }
};

beforeEach(() => {
  document.body.innerHTML = '<div id="c"></div><div id="d"></div><div id="e"></div>';
});
afterEach(() => {
  for (const h of handles) h.destroy();
  handles = [];
  vi.useRealTimers();
  vi.restoreAllMocks();
  globalThis.__DEV__ = true;
  expect(listenerCount()).toBe(0);
});

describe('the session function may return the Response of its fetch', () => {
  test('a 2xx with { sessionId } is the session', async () => {
    const id = freshId();
    const h = mount(() => json({ sessionId: id }));
    await settle();
    expect(new URL(h.iframe!.src).searchParams.get('session')).toBe(id);
  });

  test('a 5xx is renewable, named by its status: retried with a fresh call', async () => {
    const id = freshId();
    const session = vi.fn().mockResolvedValueOnce(json({ error: 'upstream' }, { status: 502, url: 'https://host.example/api/s' }));
    session.mockResolvedValueOnce(json({ sessionId: id }));
    vi.spyOn(Math, 'random').mockReturnValue(0); // the shortest backoff: 250 ms
    const h = mount(session);
    await settle();
    expect(retries(h.diagnostics)).toEqual([
      [1, 250, expect.stringContaining('the session route https://host.example/api/s answered HTTP 502: it could not mint a session')],
    ]);
    await vi.waitFor(() => expect(h.iframe).not.toBeNull(), { timeout: 2000 });
    expect(session).toHaveBeenCalledTimes(2);
    expect(new URL(h.iframe!.src).searchParams.get('session')).toBe(id);
  });

  test('another 4xx is not renewable: the error state at once, saying why it is not tried again', async () => {
    const session = vi.fn(() => json({ error: 'forbidden' }, { status: 403 }));
    const h = mount(session);
    await settle();
    expect(h.getState().status).toBe('error');
    expect(h.error).toMatchObject({ code: 'session' });
    expect(h.error!.message).toMatch(/answered HTTP 403: it refused \(not tried again.*signed in/);
    expect(session).toHaveBeenCalledTimes(1);
    expect(retries(h.diagnostics)).toEqual([]);
  });

  test('production: the code and the status', async () => {
    globalThis.__DEV__ = false;
    const h = mount(() => json({}, { status: 401 }));
    await settle();
    expect(h.error!.message).toBe('[platform-embed] session HTTP 401');
  });

  test('a 2xx that is not JSON says what to answer', async () => {
    const h = mount(() => new Response('<html>', { status: 200 }));
    await settle();
    expect(h.error!.message).toMatch(/answered HTTP 200 without JSON: answer \{ "sessionId": "\.\.\." \}/);
  });

  test.each<[string, unknown, RegExp]>([
    ['an object without sessionId names the shape', { id: 'x' }, /returned an object without "sessionId" \(keys: id\).*\{ sessionId \}/],
    ['an empty string', '', /returned an empty string/],
    ['undefined', undefined, /returned undefined/],
  ])('%s (not renewable)', async (_, result, message) => {
    const session = vi.fn(() => result as string);
    const h = mount(session);
    await settle();
    expect(h.error).toMatchObject({ code: 'session' });
    expect(h.error!.message).toMatch(message);
    expect(session).toHaveBeenCalledTimes(1);
  });

  test('a network failure (fetch rejects) is renewable', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const id = freshId();
    const session = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(json({ sessionId: id }));
    const h = mount(session);
    await settle();
    expect(retries(h.diagnostics)).toEqual([[1, 250, expect.stringContaining('session function failed: TypeError: Failed to fetch')]]);
    await vi.waitFor(() => expect(h.iframe).not.toBeNull(), { timeout: 2000 });
  });
});

describe('rate limits: Retry-After is obeyed, and one retry at a time leaves a page', () => {
  test('429 with Retry-After: the retry waits as long as asked', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const session = vi.fn(() => json({ error: 'rate_limited' }, { status: 429, headers: { 'retry-after': '7' }, url: '/api/a' }));
    const h = mount(session, { retry: 1 });
    await vi.advanceTimersByTimeAsync(10);
    expect(retries(h.diagnostics)).toEqual([[1, 7000, expect.stringContaining('HTTP 429: rate limited')]]);
    await vi.advanceTimersByTimeAsync(6980);
    expect(session).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(session).toHaveBeenCalledTimes(2);
  });

  test('Retry-After as an HTTP date, and bounded by MAX_RETRY_AFTER', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const date = new Date(Date.now() + 20_000).toUTCString();
    const a = mount(() => json({}, { status: 503, headers: { 'retry-after': date }, url: '/api/b' }), { retry: 1 });
    const b = mount(() => json({}, { status: 429, headers: { 'retry-after': '86400' }, url: '/api/c' }), { retry: 1, container: '#d' });
    await vi.advanceTimersByTimeAsync(10);
    const [[, dateDelay]] = retries(a.diagnostics) as [[number, number]];
    expect(dateDelay).toBeGreaterThan(18_000);
    expect(dateDelay).toBeLessThanOrEqual(20_000);
    expect(retries(b.diagnostics)).toEqual([[1, MAX_RETRY_AFTER, expect.anything()]]);
  });

  test('20 embeds on one rate-limited route: after the first answers, one call at a time, none before Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    document.body.innerHTML = Array.from({ length: 20 }, (_, i) => `<div id="b${i}"></div>`).join('');
    // The platform is limited for 10 s: every call before then is answered 429, Retry-After: 5.
    const start = Date.now();
    let inFlight = 0;
    let most = 0;
    const calls: number[] = [];
    const session = async () => {
      calls.push(Date.now() - start);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 50));
      inFlight--;
      return Date.now() - start < 10_000
        ? json({ error: 'rate_limited' }, { status: 429, headers: { 'retry-after': '5' }, url: '/api/limited' })
        : json({ sessionId: freshId() }, { url: '/api/limited' });
    };
    const embeds = Array.from({ length: 20 }, (_, i) => mount(session, { container: `#b${i}` }));
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(20); // the first wave: every embed asked before any answer came
    const firstWave = calls.length;
    await vi.advanceTimersByTimeAsync(30_000);
    const later = calls.slice(firstWave);
    // No call while the route said wait (before 5 s), and never two at once after the first wave.
    expect(Math.min(...later)).toBeGreaterThanOrEqual(5000);
    for (let i = 1; i < later.length; i++) expect(later[i]! - later[i - 1]!).toBeGreaterThanOrEqual(50);
    // The retries during the limited episode (5 s to 10 s): one probe per Retry-After, not one per embed.
    expect(later.filter((t) => t < 10_000).length).toBeLessThanOrEqual(2);
    // After the episode every embed got its session.
    expect(embeds.every((h) => h.iframe)).toBe(true);
    expect(most).toBe(20);
  });
});

describe('one single-use record per page, shared by every copy of the SDK', () => {
  test('an id used by one copy is refused by another, before any frame loads it', async () => {
    vi.resetModules();
    const first = await import('../src/index');
    vi.resetModules();
    const second = await import('../src/index');
    expect(second.embedDashboard).not.toBe(first.embedDashboard);
    const id = freshId();
    const a = first.embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'p', session: id });
    const b = second.embedDashboard({ container: '#d', baseUrl: BASE, publicId: 'p', session: id, retry: false });
    handles.push(a, b);
    await settle();
    expect(a.iframe).not.toBeNull();
    expect(b.iframe).toBeNull();
    expect(b.error).toMatchObject({ code: 'session', message: expect.stringContaining('session already used') });
    const record = (globalThis as Record<symbol, { version: number; used: Map<string, number> }>)[Symbol.for('platform-embed.sessions')]!;
    expect(record.version).toBe(1);
    expect(record.used.has(id)).toBe(true);
    for (const h of [a, b]) h.destroy();
    expect(first.listenerCount() + second.listenerCount()).toBe(0);
  });

  test('ids recorded by an older copy in the shared record are refused too', async () => {
    const id = freshId();
    const record = (globalThis as Record<symbol, { used: Map<string, number> }>)[Symbol.for('platform-embed.sessions')];
    // Another copy (already loaded, or of another version) wrote the record.
    if (record) record.used.set(id, performance.now());
    else
      (globalThis as Record<symbol, unknown>)[Symbol.for('platform-embed.sessions')] = {
        version: 1,
        used: new Map([[id, performance.now()]]),
      };
    const h = mount(id, { retry: false });
    await settle();
    expect(h.error?.message).toContain('session already used');
  });
});

describe('a ready that comes while a rate-limited retry waits still wins', () => {
  test('the late frame becomes ready, the waiting retry is cancelled', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const session = vi.fn(async () => freshId());
    const h = mount(session, { readyTimeout: 100 });
    await vi.advanceTimersByTimeAsync(150);
    expect(h.getState().status).toBe('loading');
    const iframe = h.iframe!;
    deliver(envelope('ready', READY), iframe.contentWindow);
    expect(h.getState().status).toBe('ready');
    await vi.advanceTimersByTimeAsync(5000);
    expect(session).toHaveBeenCalledTimes(1);
  });
});
