import { expect, test, type Frame, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { startResilientEmbed } from './support/resilientEmbed';
import { startStaticServer, type RunningServer } from './support/staticServer';
import { figures } from './support/figures';

// Lazy loads, self-healing and CSP causes of the core's built ESM in real Chromium: a host page
// on 127.0.0.1 with its own session endpoint, the embed on localhost (another site, so the
// embed runs in its own process).
const coreDist = resolve(import.meta.dirname, '../packages/core/dist');

type Core = typeof import('@platform-embed/core');
type Handle = ReturnType<Core['embedDashboard']>;
declare global {
  interface Window {
    t: { h: Handle; states: string[]; diagnostics: unknown[]; paths: string[] };
    received: string[];
    viewerNavigate(path: string): void;
    fatal(message: string): void;
  }
}

// Every session minted by the host's backend, in order (reset per test).
let minted: string[] = [];
const container = '<div id="c" style="width:400px;height:300px"></div>';
const pages: Record<string, { body: string; headers?: Record<string, string> }> = {
  '/page': { body: container },
  '/lazy': { body: `<div style="height:5000px">above the fold</div>${container}` },
  '/csp': { body: container, headers: { 'content-security-policy': "frame-src 'self'" } },
};

let host: RunningServer;
let embed: RunningServer;

test.beforeAll(async () => {
  host = await startStaticServer({
    host: '127.0.0.1',
    mounts: { '/core/': coreDist },
    routes: (req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/session') {
        const sessionId = `s${minted.length + 1}-${Math.random().toString(36).slice(2)}`;
        minted.push(sessionId);
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ sessionId }));
        return true;
      }
      const page = pages[path];
      if (!page) return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...page.headers });
      res.end(`<!doctype html><meta charset="utf-8"><title>host</title><body style="margin:0">${page.body}</body>`);
      return true;
    },
  });
  embed = await startResilientEmbed(() => host.origin);
});
test.afterAll(async () => {
  await Promise.all([host?.close(), embed?.close()]);
});
test.beforeEach(() => {
  minted = [];
});

/** Mounts an embed in `#c` whose `session` function fetches `/session` from the host origin, kept as `window.t`. */
async function mount(page: Page, options: { base: string; loading?: 'lazy'; readyTimeout?: number }) {
  await page.evaluate(async ({ base, loading, readyTimeout }) => {
    const coreUrl = '/core/index.mjs'; // served by the host origin, imported in the page
    const { embedDashboard } = (await import(coreUrl)) as Core;
    const t = { states: [] as string[], diagnostics: [] as unknown[], paths: [] as string[] } as Window['t'];
    t.h = embedDashboard({
      container: '#c',
      baseUrl: base,
      publicId: 'sales',
      loading,
      readyTimeout,
      session: async ({ signal }) => (await fetch('/session', { signal })).json(),
      onDiagnostic: (d) => t.diagnostics.push(d.kind == 'retry' ? { ...d, error: { code: d.error.code, message: d.error.message } } : d),
      onNavigate: ({ path }) => t.paths.push(path),
    });
    // The status at creation, then every change.
    t.states.push(t.h.getState().status);
    t.h.subscribe((s) => t.states.push(s.status));
    window.t = t;
  }, options);
}
const status = (page: Page) => page.evaluate(() => window.t.h.getState().status);
const embedFrame = (page: Page, session: string): Frame => {
  const frame = page.frames().find((f) => f.url().includes(`session=${session}`));
  if (!frame) throw new Error(`no frame with session ${session}: ${page.frames().map((f) => f.url())}`);
  return frame;
};

test('a lazy embed 5,000 px below the fold mints no session and does not time out until scrolled to, then loads', async ({ page }) => {
  await page.goto(`${host.origin}/lazy`);
  await mount(page, { base: embed.origin, loading: 'lazy', readyTimeout: 1000 });
  // Well past its readyTimeout: still idle, no session, no iframe.
  await page.waitForTimeout(2500);
  const before = await page.evaluate(() => ({
    status: window.t.h.getState().status,
    states: window.t.states,
    iframes: document.querySelectorAll('iframe').length,
  }));
  expect(before).toEqual({ status: 'idle', states: ['idle'], iframes: 0 });
  expect(minted).toEqual([]);

  await page.locator('#c').scrollIntoViewIfNeeded();
  await expect.poll(() => status(page)).toBe('ready');
  const after = await page.evaluate(() => ({ states: window.t.states, src: window.t.h.iframe!.src, loading: window.t.h.iframe!.loading }));
  expect(after.states).toEqual(['idle', 'loading', 'ready']);
  expect(minted).toHaveLength(1);
  expect(after.src).toBe(`${embed.origin}/embed/dashboard/sales?session=${minted[0]}`);
});

test('a fatal error from the frame heals on a new session and the new frame is sent the viewer’s last path', async ({ page }) => {
  await page.goto(`${host.origin}/page`);
  await mount(page, { base: embed.origin });
  await expect.poll(() => status(page)).toBe('ready');
  expect(minted).toHaveLength(1);
  await page.evaluate(() => window.t.h.setColorScheme('dark'));

  // The viewer moves inside the embed; the host hears of it.
  const first = embedFrame(page, minted[0]!);
  await first.evaluate(() => window.viewerNavigate('/sales/q3/by-region'));
  await expect.poll(() => page.evaluate(() => window.t.paths)).toEqual(['/sales/q3/by-region']);

  // The session expires: the embed reports a fatal error.
  await first.evaluate(() => window.fatal('session expired'));
  await expect.poll(() => minted.length).toBe(2);
  await expect.poll(() => status(page)).toBe('ready');
  const result = await page.evaluate(() => ({
    states: window.t.states,
    diagnostics: window.t.diagnostics,
    src: window.t.h.iframe!.src,
    iframes: document.querySelectorAll('iframe').length,
  }));
  // loading during the retry, never error; one retry reported, with the fatal cause.
  expect(result.states).toEqual(['loading', 'ready', 'loading', 'ready']);
  expect(result.diagnostics).toEqual([
    expect.objectContaining({ kind: 'retry', attempt: 1, of: 3, error: expect.objectContaining({ code: 'fatal' }) }),
  ]);
  const { delay } = result.diagnostics[0] as { delay: number };
  expect(delay).toBeGreaterThanOrEqual(250);
  expect(delay).toBeLessThanOrEqual(500);
  expect(minted[1]).not.toBe(minted[0]);
  expect(result.src).toBe(`${embed.origin}/embed/dashboard/sales?session=${minted[1]}`);
  expect(result.iframes).toBe(1);

  // The new frame gets the viewer's place back right after ready, with the host-set scheme.
  const second = embedFrame(page, minted[1]!);
  await expect.poll(() => second.evaluate(() => window.received)).toHaveLength(2);
  expect((await second.evaluate(() => window.received)).sort()).toEqual([
    'navigate {"path":"/sales/q3/by-region"}',
    'set-color-scheme {"scheme":"dark"}',
  ]);
  // ...and it confirms it: the host hears the path again.
  await expect.poll(() => page.evaluate(() => window.t.paths)).toEqual(['/sales/q3/by-region', '/sales/q3/by-region']);
});

test('an embed whose container the host moves with appendChild (no binding sees it) loads again with a fresh session', async ({ page }) => {
  await page.goto(`${host.origin}/page`);
  await mount(page, { base: embed.origin });
  await expect.poll(() => status(page)).toBe('ready');
  await page.evaluate(() => window.t.h.setColorScheme('dark'));
  // The browser gives the moved iframe a new window, which loads the spent session's URL again
  // and posts from a window the SDK never routed: without a watch, the embed would say ready
  // while nobody hears its frame.
  await page.evaluate(() => {
    const section = document.body.appendChild(document.createElement('section'));
    section.append(document.getElementById('c')!);
  });
  await expect.poll(() => minted.length).toBe(2);
  await expect.poll(() => status(page)).toBe('ready');
  const result = await page.evaluate(() => ({
    states: window.t.states,
    diagnostics: window.t.diagnostics,
    src: window.t.h.iframe!.src,
    iframes: document.querySelectorAll('iframe').length,
  }));
  expect(result.states).toEqual(['loading', 'ready', 'loading', 'ready']);
  expect(result.diagnostics).toEqual([
    expect.objectContaining({
      kind: 'retry',
      error: expect.objectContaining({ code: 'fatal', message: expect.stringContaining('frame reloaded') }),
    }),
  ]);
  expect(result.src).toBe(`${embed.origin}/embed/dashboard/sales?session=${minted[1]}`);
  expect(result.iframes).toBe(1);
  // (The page runs the default build without a bundler: production words.) The new frame is heard,
  // and got the host's scheme back.
  const second = embedFrame(page, minted[1]!);
  await expect.poll(() => second.evaluate(() => window.received)).toEqual(['set-color-scheme {"scheme":"dark"}']);
  await second.evaluate(() => window.viewerNavigate('/sales/after-the-move'));
  await expect.poll(() => page.evaluate(() => window.t.paths)).toEqual(['/sales/after-the-move']);
});

test('a host page whose CSP frame-src blocks the tenant reports the cause in under a second', async ({ page }) => {
  const response = await page.goto(`${host.origin}/csp`);
  expect(response!.headers()['content-security-policy']).toBe("frame-src 'self'");
  const result = await page.evaluate(
    async ({ base }) => {
      const coreUrl = '/core/index.mjs';
      const { embedDashboard } = (await import(coreUrl)) as Core;
      const diagnostics: string[] = [];
      const t0 = performance.now();
      const h = embedDashboard({
        container: '#c',
        baseUrl: base,
        publicId: 'sales',
        session: async () => (await fetch('/session')).json(),
        onDiagnostic: (d) => diagnostics.push(d.kind),
      });
      const error = await new Promise<{ ms: number; code: string; message: string } | null>((done) => {
        h.subscribe((s) => s.status == 'error' && done({ ms: performance.now() - t0, code: s.error!.code, message: s.error!.message }));
        setTimeout(() => done(null), 5000);
      });
      const rejected = await h.ready.then(
        () => null,
        (e: Error) => e.message,
      );
      return { error, rejected, diagnostics, status: h.getState().status };
    },
    { base: embed.origin },
  );
  expect(result.error, 'no error state within 5 s').not.toBeNull();
  const { ms, code, message } = result.error!;
  test.info().annotations.push({ type: 'blocked after', description: `${ms.toFixed(1)} ms` });
  figures(`CSP block reported ${ms.toFixed(1)} ms after embedDashboard()`);
  expect(code).toBe('blocked');
  expect(message).toContain('frame-src');
  expect(message).toContain(embed.origin);
  expect(ms).toBeLessThan(1000);
  expect(result.rejected).toBe(message);
  // Not retried: a new session does not change the page's policy.
  expect(result.diagnostics).toEqual([]);
  expect(result.status).toBe('error');
});
