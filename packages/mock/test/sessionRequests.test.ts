import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sessionRequestCases } from '../../server/test/sessionRequests.table';
import { startMockPlatform, type MockPlatform } from '../src/index';
import { TABLE_FIXTURE, postSession, toJson } from './fixture';

let platform: MockPlatform;
beforeAll(async () => {
  platform = await startMockPlatform(TABLE_FIXTURE);
});
afterAll(() => platform.close());
beforeEach(() => platform.reset());

describe('the shared generate-session table, over HTTP against the mock', () => {
  it('has cases', () => {
    expect(sessionRequestCases.length).toBeGreaterThan(50);
  });

  it.each(sessionRequestCases.map((c) => [`${c.rule}: ${c.name}`, c] as const))('%s', async (_name, c) => {
    const { status, body } = await postSession(
      platform.origin,
      toJson(c.request),
      c.apiKey === undefined ? 'test-key-0123456789' : c.apiKey,
    );
    expect({ status, message: body.message }).toMatchObject({ status: c.platform.status });
    if (c.platform.status == 200) {
      expect(body.sessionId).toMatch(/^[\w-]{20,}$/);
      expect(platform.sessions().at(-1)).toMatchObject({ sessionId: body.sessionId });
    } else {
      expect(body.sessionId).toBeUndefined();
      expect(platform.sessions()).toHaveLength(0);
      expect(body.message).toEqual(expect.any(String));
      if ('message' in c.platform && c.platform.message) expect(body.message).toContain(c.platform.message);
    }
  });
});
