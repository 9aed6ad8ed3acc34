import { afterEach, describe, expect, it } from 'vitest';
import { startMockPlatform, type MockPlatform, type MockPlatformOptions } from '../src/index';
import { TABLE_FIXTURE, pageConfig } from './fixture';

let platform: MockPlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});
const start = async (options: MockPlatformOptions = {}) => (platform = await startMockPlatform({ ...TABLE_FIXTURE, ...options }));
const get = async (p: MockPlatform, path: string) => {
  const res = await fetch(p.url(path));
  const html = await res.text();
  return {
    status: res.status,
    html,
    config: res.headers.get('content-type')?.startsWith('text/html') ? pageConfig(html) : undefined,
    headers: res.headers,
  };
};
const ext = { deploymentId: 1, externalId: 'jane@example.com' };

describe('sessions are single-use and expire', () => {
  it('a session opens the page once; the second load is an error page', async () => {
    const p = await start();
    const session = await p.mintSession(ext);
    const first = await get(p, `/embed/dashboard/sales-overview?session=${session}`);
    expect(first.status).toBe(200);
    expect(first.config).toMatchObject({
      surface: 'dashboard',
      mode: 'signed',
      deploymentId: 1,
      publicId: 'sales-overview',
      embedTenant: null,
    });
    expect(first.config!.error).toBeUndefined();
    expect(first.html).not.toContain(session);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(p.sessions()[0]!.usedAt).toEqual(expect.any(Number));

    const second = await get(p, `/embed/dashboard/sales-overview?session=${session}`);
    expect(second.status).toBe(401);
    expect(second.config!.error).toEqual({ name: 'SessionError', message: expect.stringContaining('already used') });
    expect(second.html).not.toContain(session);
  });

  it('an unknown session is an error page', async () => {
    const p = await start();
    const page = await get(p, '/embed/dashboard/sales-overview?session=made-up');
    expect(page.status).toBe(401);
    expect(page.config!.error!.message).toContain('Session not found');
  });

  it('expires after sessionTtlMs (real clock, short TTL)', async () => {
    // (Long enough for the first page to be served within it on a loaded machine.)
    const p = await start({ sessionTtlMs: 1000 });
    const fresh = await p.mintSession(ext);
    const stale = await p.mintSession(ext);
    expect((await get(p, `/embed/chat?sessionId=${fresh}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    const page = await get(p, `/embed/chat?sessionId=${stale}`);
    expect(page.status).toBe(401);
    expect(page.config!.error!.message).toContain('expired');
  });

  it('expires after 5 minutes by default (injected clock)', async () => {
    let now = 1_000_000;
    const p = await start({ now: () => now });
    const a = await p.mintSession(ext);
    const b = await p.mintSession(ext);
    expect(p.sessions()[0]).toMatchObject({ createdAt: 1_000_000, expiresAt: 1_300_000 });
    now += 299_999;
    expect((await get(p, `/embed/dashboard/sales-overview?session=${a}`)).config!.error).toBeUndefined();
    now += 1;
    expect((await get(p, `/embed/dashboard/sales-overview?session=${b}`)).config!.error!.message).toContain('expired');
  });
});

describe('the three surfaces', () => {
  it('chat reads sessionId (not session); without it, it is private mode', async () => {
    const p = await start();
    const session = await p.mintSession({ ...ext, deploymentId: 2 });
    const wrongParam = await get(p, `/embed/chat?session=${session}`);
    expect(wrongParam.config).toMatchObject({ surface: 'chat', mode: 'private', deploymentId: null });
    expect(p.sessions()[0]!.usedAt).toBeUndefined();
    const signed = await get(p, `/embed/chat?sessionId=${session}`);
    expect(signed.config).toMatchObject({ surface: 'chat', mode: 'signed', deploymentId: 2, user: { name: 'jane@example.com' } });
  });

  it('dashboard: private mode without a session, 404 page for an unknown dashboard, 403 page for another deployment', async () => {
    const p = await start();
    expect((await get(p, '/embed/dashboard/sales-overview')).config).toMatchObject({
      mode: 'private',
      deploymentId: 1,
      publicId: 'sales-overview',
    });
    const missing = await get(p, '/embed/dashboard/nope');
    expect(missing.status).toBe(404);
    expect(missing.config!.error!.message).toContain('Dashboard "nope" not found');
    const session = await p.mintSession({ ...ext, deploymentId: 2 });
    const other = await get(p, `/embed/dashboard/sales-overview?session=${session}`);
    expect(other.status).toBe(403);
    expect(other.config!.error!.message).toContain('deployment 2');
  });

  it('app: needs a signed creator-mode session for the deployment in the path', async () => {
    const p = await start();
    expect((await get(p, '/embed/d/1/app')).config!.error!.message).toContain('needs a signed session');
    const plain = await p.mintSession(ext);
    expect((await get(p, `/embed/d/1/app?session=${plain}`)).config!.error!.message).toContain('creator-mode');
    const creator = await p.mintSession({ ...ext, creatorMode: true, embedTenantName: 'acme-corp' });
    expect((await get(p, `/embed/d/2/app?session=${creator}`)).status).toBe(403);
    const creator2 = await p.mintSession({ ...ext, creatorMode: true, embedTenantName: 'acme-corp' });
    const page = await get(p, `/embed/d/1/app?session=${creator2}`);
    expect(page.config).toMatchObject({
      surface: 'app',
      mode: 'signed',
      embedTenant: 'acme-corp',
      deploymentId: 1,
      dashboard: { deploymentId: 1 },
    });
    expect(page.config!.publicId).toBeUndefined();
  });

  it('passes the session settings, the stored profile and allowedOrigins to the page', async () => {
    const p = await start({ allowedOrigins: ['http://127.0.0.1:5173/some/path'] });
    const session = await p.mintSession({
      ...ext,
      settings: { showDashboardChat: false },
      userProfile: { displayName: 'Jane', picture: 'https://cdn.example.com/j.png' },
    });
    expect((await get(p, `/embed/dashboard/sales-overview?session=${session}`)).config).toMatchObject({
      settings: { showDashboardChat: false },
      user: { name: 'Jane', picture: 'https://cdn.example.com/j.png' },
      allowedOrigins: ['http://127.0.0.1:5173'],
    });
  });

  it('cannot be broken out of by a configured title', async () => {
    const p = await start({ dashboards: [{ publicId: 'x', title: '</script><script>alert(1)</script>', deploymentId: 1 }] });
    const page = await get(p, '/embed/dashboard/x');
    expect(page.html.match(/<script/g)).toHaveLength(2);
    expect(page.config!.dashboard).toMatchObject({ title: '</script><script>alert(1)</script>' });
  });
});

describe('assets and test endpoints', () => {
  it('serves the page script, its style and the core build the script imports', async () => {
    const p = await start();
    const script = await fetch(p.url('/_mock/embed.js'));
    expect(script.headers.get('content-type')).toContain('javascript');
    const code = await script.text();
    expect(code).toContain("from '/_mock/core.mjs'");
    expect(code).not.toMatch(/postMessage\([^)]*['"]\*['"]/);
    const core = await (await fetch(p.url('/_mock/core.mjs'))).text();
    for (const name of ['ACTION_SCHEMAS', 'EVENT_SCHEMAS', 'checkPayload', 'isPlainObject', 'SOURCE'])
      expect(core).toMatch(new RegExp(`export \\{[^}]*\\b${name}\\b`));
    expect((await fetch(p.url('/_mock/embed.css'))).status).toBe(200);
    expect((await fetch(p.url('/nope'))).status).toBe(404);
  });

  it('GET /_mock/state lists sessions without their ids; POST /_mock/reset resets', async () => {
    const p = await start();
    const session = await p.mintSession(ext);
    const text = await (await fetch(p.url('/_mock/state'))).text();
    expect(text).not.toContain(session);
    expect(JSON.parse(text)).toMatchObject({
      externalUserCount: 1,
      sessions: [{ deploymentId: 1, user: { externalId: 'jane@example.com' } }],
    });
    expect((await fetch(p.url('/_mock/reset'), { method: 'POST' })).status).toBe(204);
    expect(p.externalUserCount).toBe(0);
  });
});
