import { expect, test, type Page } from '@playwright/test';
import type { ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { startResilientEmbed } from './support/resilientEmbed';
import { startStaticServer, type RunningServer } from './support/staticServer';
import { figures } from './support/figures';

// The session edges in real Chromium, in the core's development and production builds: a host
// page on 127.0.0.1 with its session routes (normal, rate-limited, endless, huge), the embed on
// localhost. A report-only CSP is not a block; the SDK cancels the session downloads it
// abandons and bounds what it reads; one Retry-After wait holds for every embed of every copy
// of the SDK on the page (the script tag beside the ESM build); the page-wide record never
// breaks mounting, whatever another script left in it.
const coreDist = resolve(import.meta.dirname, '../packages/core/dist');
const elementDist = resolve(import.meta.dirname, '../packages/element/dist');

type Core = typeof import('@platform-embed/core');
type Handle = ReturnType<Core['embedDashboard']>;
type Run = { status: string; states: string[]; code?: string; message?: string; diagnostics: string[]; ms: number };
declare global {
  interface Window {
    core: Core;
    PlatformEmbed: Core;
    longest: number;
    /** Mounts an embed in a new container and resolves when it is ready or failed (or after `wait` ms). */
    run(options: Record<string, unknown>, core?: Core, wait?: number): Promise<Run & { h: Handle }>;
  }
}

const BUILDS = [
  { name: 'development', core: '/core/index.development.mjs', script: '/element/platform-embed.js' },
  { name: 'production', core: '/core/index.production.mjs', script: '/element/platform-embed.min.js' },
] as const;
const MB = 1 << 20;

// What the host's routes saw (reset per test).
let minted: string[] = [];
/** Each call to a session route: its path and when (ms since the first call of the test). */
let calls: { path: string; at: number }[] = [];
let firstCall = 0;
let inFlight = 0;
let mostInFlight = 0;
/** Each endless download by tag: bytes written so far, and whether the browser closed it. */
const downloads = new Map<string, { bytes: number; closed: boolean }>();
// The rate limit of the /limited route: 429 until then (its first call starts it).
let limitedUntil = 0;
const LIMIT_MS = 2000;

const mint = (res: ServerResponse) => {
  const sessionId = `s${minted.length + 1}-${Math.random().toString(36).slice(2)}`;
  minted.push(sessionId);
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ sessionId }));
};

// Writes a JSON body that never ends, `chunk` bytes every `every` ms (capped at 64 MB, then it
// stalls without ending, so that a page that keeps reading cannot take the machine down),
// counting what the browser took.
const endless = (tag: string, res: ServerResponse, chunk: number, every: number) => {
  const download = { bytes: 0, closed: false };
  downloads.set(tag, download);
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.write('{"sessionId":"');
  const data = Buffer.alloc(chunk, 'a');
  let full = false;
  res.on('drain', () => (full = false));
  const timer = setInterval(() => {
    if (full || download.bytes >= 64 * MB) return;
    download.bytes += data.length;
    full = !res.write(data);
  }, every);
  res.on('close', () => {
    download.closed = true;
    clearInterval(timer);
  });
};

const page = (body: string, headers: Record<string, string> = {}) => ({ body, headers });
const pages: Record<string, { body: string; headers: Record<string, string> }> = {
  '/page': page(''),
  '/csp-report': page('', { 'content-security-policy-report-only': "frame-src 'none'" }),
  '/csp': page('', { 'content-security-policy': "frame-src 'self' blob:" }),
};

let host: RunningServer;
let embed: RunningServer;

test.beforeAll(async () => {
  host = await startStaticServer({
    host: '127.0.0.1',
    mounts: { '/core/': coreDist, '/element/': elementDist },
    routes: async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const path = url.pathname;
      if (path.startsWith('/session/')) {
        firstCall ||= Date.now();
        calls.push({ path, at: Date.now() - firstCall });
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        res.on('close', () => inFlight--);
        const kind = path.slice('/session/'.length);
        // Fast (256 KB every 20 ms, about 12 MB/s), or trickled (64 bytes every 50 ms).
        if (kind == 'endless')
          endless(
            url.searchParams.get('tag') ?? '',
            res,
            ...((url.searchParams.has('trickle') ? [64, 50] : [256 * 1024, 20]) as [number, number]),
          );
        else if (kind == 'huge') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ sessionId: 'x'.repeat(5 * MB) }));
        } else if (kind == 'limited') {
          limitedUntil ||= Date.now() + LIMIT_MS;
          // Every answer takes 50 ms, so that two calls at once would overlap.
          await new Promise((r) => setTimeout(r, 50));
          if (Date.now() >= limitedUntil) mint(res);
          else {
            res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(LIMIT_MS / 1000) });
            res.end(JSON.stringify({ error: 'rate_limited' }));
          }
        } else if (kind == 'retry-after') {
          // Limited at the first call of each value only: the header as the test wrote it.
          const value = url.searchParams.get('value')!;
          if (calls.filter((c) => c.path == path + value).length) mint(res);
          else {
            res.writeHead(503, { 'retry-after': value });
            res.end();
          }
          calls.at(-1)!.path += value;
        } else mint(res);
        return true;
      }
      const html = pages[path];
      if (!html) return false;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...html.headers });
      res.end(`<!doctype html><meta charset="utf-8"><title>host</title><body style="margin:0">${html.body}</body>`);
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
  calls = [];
  firstCall = 0;
  inFlight = mostInFlight = 0;
  downloads.clear();
  limitedUntil = 0;
});

/**
 * Opens `path`, runs `before` in the page (e.g. to leave something in the page-wide record),
 * imports the build's ESM core as `window.core` and, with `script`, its script tag beside it
 * (`window.PlatformEmbed`), and defines `window.run` and a watch of the page's longest freeze (`window.longest`).
 */
async function open(page: Page, build: (typeof BUILDS)[number], path = '/page', options: { script?: boolean; before?: string } = {}) {
  await page.goto(`${host.origin}${path}`);
  if (options.before) await page.evaluate(options.before);
  if (options.script) await page.addScriptTag({ url: build.script });
  await page.evaluate(
    async ({ coreUrl, base }) => {
      // The page's longest freeze: the longest gap between the ticks of a 20 ms interval, less 20 ms.
      window.longest = 0;
      let tick = performance.now();
      setInterval(() => {
        window.longest = Math.max(window.longest, performance.now() - tick - 20);
        tick = performance.now();
      }, 20);
      window.core = (await import(coreUrl)) as Core;
      let n = 0;
      window.run = (options, core = window.core, wait = 8000) => {
        const container = document.body.appendChild(document.createElement('div'));
        container.id = `c${n++}`;
        container.style.cssText = 'width:300px;height:200px';
        const t0 = performance.now();
        const diagnostics: string[] = [];
        const h = core.embedDashboard({
          container,
          baseUrl: base,
          publicId: 'sales',
          onDiagnostic: (d) => diagnostics.push(d.kind == 'retry' ? `retry ${d.delay}` : d.kind),
          ...options,
        } as Parameters<Core['embedDashboard']>[0]);
        const states = [h.getState().status];
        return new Promise((done) => {
          const end = () => {
            const { status, error } = h.getState();
            done({ h, status, states, code: error?.code, message: error?.message, diagnostics, ms: performance.now() - t0 });
          };
          h.subscribe((s) => {
            states.push(s.status);
            if (s.status == 'ready' || s.status == 'error') end();
          });
          setTimeout(end, wait);
        });
      };
    },
    { coreUrl: build.core, base: embed.origin },
  );
}
// `window.run` in the page, without the handle (not serializable).
const run = (page: Page, options: string, wait?: number) =>
  page.evaluate(
    async ([options, wait]) => {
      const { h: _h, ...result } = await window.run((0, eval)(`(${options})`), window.core, wait);
      return result;
    },
    [options, wait] as const,
  );
const bytesOf = (tag: string) => downloads.get(tag) ?? { bytes: 0, closed: false };

for (const build of BUILDS) {
  test.describe(`${build.name} build`, () => {
    test('4. a report-only CSP that would block the frame is no block: the embed is ready, never in error', async ({ page }) => {
      await open(page, build, '/csp-report');
      await page.evaluate(() => {
        (window as unknown as { reports: string[] }).reports = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          (window as unknown as { reports: string[] }).reports.push(`${e.disposition} ${e.effectiveDirective}`),
        );
      });
      const result = await run(page, `{ session: () => fetch('/session/ok', { method: 'POST' }) }`);
      expect(result).toMatchObject({ status: 'ready', states: ['loading', 'ready'], diagnostics: [] });
      // The browser did report the violation (it would have blocked the frame).
      const reports = await page.evaluate(() => (window as unknown as { reports: string[] }).reports);
      expect(reports.length).toBeGreaterThan(0);
      expect(new Set(reports)).toEqual(new Set(['report frame-src']));
    });

    test('4. an enforced CSP that blocks the frame still fails at once as blocked', async ({ page }) => {
      await open(page, build, '/csp');
      const result = await run(page, `{ session: () => fetch('/session/ok', { method: 'POST' }) }`);
      expect(result).toMatchObject({ status: 'error', code: 'blocked', diagnostics: [] });
      expect(result.message).toContain('frame-src');
      expect(result.ms).toBeLessThan(1000);
    });

    test('5. a session body that never ends (the README’s session function, no signal): its download stops', async ({ page }) => {
      await open(page, build);
      const result = await run(
        page,
        `{ sessionTimeout: 1000, retry: false, session: () => fetch('/session/endless?tag=fast', { method: 'POST' }) }`,
      );
      const atError = bytesOf('fast').bytes;
      // What flows in the 1.5 s after the error (a download going on would send megabytes), and
      // the close, waited for: a loaded machine may take longer to see the socket closed.
      await page.waitForTimeout(1500);
      await expect.poll(() => bytesOf('fast').closed).toBe(true);
      const after = bytesOf('fast');
      figures(
        `${build.name}: endless body: ${result.code} error after ${result.ms.toFixed(0)} ms, ${(atError / MB).toFixed(2)} MB sent by then, ` +
          `+${((after.bytes - atError) / MB).toFixed(2)} MB in the 1.5 s after; closed: ${after.closed}`,
      );
      expect(result).toMatchObject({ status: 'error', code: 'session' });
      expect(after.closed).toBe(true);
      expect(after.bytes).toBeLessThan(4 * MB);
    });

    test('5. at the session timeout, destroy or a newer attempt, the SDK cancels the download and aborts the signal', async ({ page }) => {
      await open(page, build);
      const timedOut = page.evaluate(async () => {
        let signal: AbortSignal | undefined;
        const { h: _h, ...r } = await window.run({
          sessionTimeout: 1000,
          retry: false,
          // As the README shows: the Response as it is, the signal not passed to fetch.
          session: (context: { signal: AbortSignal }) => (
            (signal = context.signal),
            fetch('/session/endless?trickle&tag=timeout', { method: 'POST' })
          ),
        });
        return { ...r, aborted: signal?.aborted };
      });
      await page.evaluate((base) => {
        const w = window as unknown as { destroyed: Handle; reloaded: Handle; signals: AbortSignal[] };
        w.signals = [];
        const mount = (session: (c: { signal: AbortSignal }) => Promise<Response>) =>
          window.core.embedDashboard({
            container: document.body.appendChild(document.createElement('div')),
            baseUrl: base,
            publicId: 'sales',
            session,
          });
        w.destroyed = mount(({ signal }) => (w.signals.push(signal), fetch('/session/endless?trickle&tag=destroy', { method: 'POST' })));
        let n = 0;
        w.reloaded = mount(
          ({ signal }) => (w.signals.push(signal), fetch(n++ ? '/session/ok' : '/session/endless?trickle&tag=reload', { method: 'POST' })),
        );
      }, embed.origin);
      await expect.poll(() => Math.min(bytesOf('destroy').bytes, bytesOf('reload').bytes)).toBeGreaterThan(128);
      await page.evaluate(() => {
        const w = window as unknown as { destroyed: Handle; reloaded: Handle };
        w.destroyed.destroy();
        w.reloaded.reload();
      });
      const result = await timedOut;
      expect(result).toMatchObject({ status: 'error', code: 'session', aborted: true });
      expect(result.message).toMatch(build.name == 'development' ? /did not answer within 1000 ms/ : /session timeout 1000 ms/);
      await expect.poll(() => page.evaluate(() => (window as unknown as { reloaded: Handle }).reloaded.getState().status)).toBe('ready');
      const signals = await page.evaluate(() => (window as unknown as { signals: AbortSignal[] }).signals.map((s) => s.aborted));
      expect(signals.slice(0, 2)).toEqual([true, true]);
      // Each abandoned download closed (the browser would otherwise go on reading it): waited
      // for, not given a fixed 500 ms (the host's server sees the close when the machine gets to it).
      const closed = () => ['timeout', 'destroy', 'reload'].map((tag) => [tag, bytesOf(tag).closed]);
      await expect.poll(closed).toEqual([
        ['timeout', true],
        ['destroy', true],
        ['reload', true],
      ]);
      figures(`${build.name}: trickled downloads closed: ${JSON.stringify(closed())}`);
    });

    test('5. bodies and ids past their bounds are refused at once as session errors, without freezing the page', async ({ page }) => {
      test.setTimeout(60_000);
      await open(page, build);
      const bounded = 'readyTimeout: 3000, sessionTimeout: 3000, retry: false';
      const cases = {
        '5 MB body': `{ ${bounded}, session: () => fetch('/session/huge', { method: 'POST' }) }`,
        '5 MB id': `{ ${bounded}, session: async () => 'y'.repeat(5 * 1024 * 1024) }`,
        // Constructed bodies that never end (capped for the old code's sake: 100 MB, 1 M chunks).
        'endless stream': `{ ${bounded}, session: () => {
          let n = 0;
          return new Response(new ReadableStream({ pull: (c) => n++ < 400 ? c.enqueue(new Uint8Array(256 * 1024).fill(97)) : new Promise(() => {}) }));
        } }`,
        'endless 1-byte stream': `{ ${bounded}, session: () => {
          let n = 0;
          return new Response(new ReadableStream({ pull: (c) => n++ < 1e6 ? c.enqueue(new Uint8Array([97])) : new Promise(() => {}) }));
        } }`,
      };
      const results: Record<string, Run> = {};
      for (const [name, options] of Object.entries(cases)) {
        await page.evaluate(() => (window.longest = 0));
        const result = (results[name] = await run(page, options, 5000));
        const longest = await page.evaluate(() => new Promise<number>((done) => setTimeout(() => done(window.longest), 50)));
        figures(
          `${build.name}: ${name}: ${result.status} ${result.code ?? ''} after ${result.ms.toFixed(0)} ms (${result.message?.slice(0, 90)}), longest task ${longest.toFixed(0)} ms`,
        );
        expect.soft(result, name).toMatchObject({ status: 'error', code: 'session', states: ['loading', 'error'] });
        expect.soft(result.ms, name).toBeLessThan(1000);
        expect.soft(longest, name).toBeLessThan(200);
      }
      expect(results['5 MB id']!.message).toMatch(/session id/);
      for (const name of ['5 MB body', 'endless stream', 'endless 1-byte stream'])
        expect(results[name]!.message).toMatch(build.name == 'development' ? /answered more than 16384 bytes/ : /session body too long/);
    });

    test('6. one Retry-After wait for the page: embeds created during it by either copy of the SDK wait, none stacks it', async ({
      page,
    }) => {
      await open(page, build, '/page', { script: true });
      const results = await page.evaluate(async () => {
        const options = { session: () => fetch('/session/limited', { method: 'POST' }) };
        // The script tag's copy first; then embeds of both copies, created during the wait.
        const runs = [window.run(options, window.PlatformEmbed, 10_000)];
        for (let i = 1; i <= 4; i++) {
          await new Promise((r) => setTimeout(r, 400));
          // Both copies: the first embed's copy, and the other.
          runs.push(window.run(options, i % 2 ? window.core : window.PlatformEmbed, 10_000));
        }
        return (await Promise.all(runs)).map(({ h: _h, ...r }) => r);
      });
      figures(
        `${build.name}: calls at ${calls.map((c) => c.at).join(', ')} ms; ready after ${results.map((r) => r.ms.toFixed(0)).join(', ')} ms`,
      );
      expect(results.map((r) => r.status)).toEqual(['ready', 'ready', 'ready', 'ready', 'ready']);
      // The first call was refused for LIMIT_MS: no other call before then, then one at a time.
      const later = calls.slice(1).map((c) => c.at);
      expect(Math.min(...later)).toBeGreaterThanOrEqual(LIMIT_MS);
      expect(later).toHaveLength(5);
      expect(mostInFlight).toBe(1);
      // The wait ended when the platform said, not moved by latecomers; then everyone in line,
      // none waiting another Retry-After (measured at the route: when each embed was ready also
      // counts its frame's load, which a loaded machine stretched to 2.8 s of the 4 s allowed).
      expect(later[0]).toBeLessThan(LIMIT_MS + 500);
      expect(later.at(-1)! - later[0]!).toBeLessThan(LIMIT_MS);
    });

    test('6. Retry-After that RFC 9110 does not allow is ignored; seconds and HTTP dates are obeyed', async ({ page }) => {
      await open(page, build);
      const delays = await page.evaluate(async () => {
        const values = ['0x0A', '1e1', '2.5', '-1', 'soon', '1', () => new Date(Date.now() + 3000).toUTCString()];
        // One at a time: an obeyed one holds the page's wait for the next.
        const out: string[] = [];
        for (const value of values) {
          const header = typeof value == 'string' ? value : value();
          const { h: _h, ...r } = await window.run({
            retry: 1,
            session: () => fetch(`/session/retry-after?value=${encodeURIComponent(header)}`, { method: 'POST' }),
          });
          out.push(`${r.status} ${r.diagnostics.join()}`);
        }
        return out;
      });
      const [hex, exponent, fraction, negative, garbage, seconds, date] = delays.map((d) => {
        const [status, , delay] = d.split(' ');
        return { status, delay: Number(delay) };
      });
      for (const ignored of [hex, exponent, fraction, negative, garbage]) {
        expect(ignored!.status).toBe('ready');
        expect(ignored!.delay).toBeLessThanOrEqual(500); // the backoff, not the header
      }
      expect(seconds).toEqual({ status: 'ready', delay: 1000 });
      expect(date!.delay).toBeGreaterThan(1000);
      expect(date!.delay).toBeLessThanOrEqual(3000);
    });

    test('7. whatever another script left in the page-wide record, embeds mount; an unusable record is reported', async ({ page }) => {
      const values = {
        empty: '({})',
        array: '[]',
        string: '"ids"',
        zero: '0',
        frozen: 'Object.freeze({})',
        'frozen record': 'Object.freeze({ version: 2, used: Object.freeze(new Map()), until: 0 })',
        'throwing proxy': 'new Proxy({}, { get() { throw new Error("trap") }, has() { throw new Error("trap") } })',
        'future version': '({ version: 9, sessions: new Set() })',
      };
      const outcomes: string[] = [];
      for (const [name, value] of Object.entries(values))
        for (const key of ['platform-embed.sessions', 'platform-embed.sessions@2']) {
          await open(page, build, '/page', {
            before: `Object.defineProperty(globalThis, Symbol.for(${JSON.stringify(key)}), { value: ${value}, writable: false, configurable: true })`,
          });
          const result = await run(page, `{ session: () => fetch('/session/ok', { method: 'POST' }) }`);
          outcomes.push(`${name} at ${key}: ${result.status} ${result.code ?? ''} ${result.message ?? ''} [${result.diagnostics}]`.trim());
          expect(result.status, `${name} at ${key}: ${result.message}`).toBe('ready');
          // What this copy cannot use as the page's record is reported (the version-1 key it no longer depends on).
          if (key.endsWith('@2')) expect(result.diagnostics).toContain('page-record');
          // Used ids are still refused within this copy.
          const again = await run(page, `{ retry: false, session: ${JSON.stringify(minted.at(-1))} }`);
          expect(again).toMatchObject({ status: 'error', code: 'session' });
        }
      figures(outcomes.join('\n'));
    });

    test('7. the script tag and the ESM build share one record, and an older copy’s record (version 1) is honoured', async ({ page }) => {
      await open(page, build, '/page', {
        script: true,
        before: `globalThis[Symbol.for('platform-embed.sessions')] = { version: 1, used: new Map([['old-copy-id', performance.now()]]) }`,
      });
      const result = await page.evaluate(async () => {
        const strip = ({ h: _h, ...r }: Run & { h: Handle }) => r;
        const first = strip(await window.run({ session: 'shared-id' }, window.PlatformEmbed));
        const second = strip(await window.run({ session: 'shared-id', retry: false }, window.core));
        const old = strip(await window.run({ session: 'old-copy-id', retry: false }, window.core));
        const record = (globalThis as unknown as Record<symbol, { version: number; used: Map<string, number> }>)[
          Symbol.for('platform-embed.sessions')
        ]!;
        return { first, second, old, v1: [record.version, record.used.has('shared-id')] };
      });
      expect(result.first.status).toBe('ready');
      expect(result.second).toMatchObject({ status: 'error', code: 'session', message: expect.stringContaining('session already used') });
      expect(result.old).toMatchObject({ status: 'error', code: 'session', message: expect.stringContaining('session already used') });
      // An older copy loaded later still sees the ids of the new ones.
      expect(result.v1).toEqual([1, true]);
    });
  });
}
