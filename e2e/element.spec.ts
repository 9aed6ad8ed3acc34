import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type * as ElementPackage from '../packages/element/src/index';
import { startFakeEmbed } from './support/fakeEmbed';
import { startStaticServer, type RunningServer } from './support/staticServer';

// The script-tag bundle (core included), loaded with one <script> tag by a host page on
// 127.0.0.1 whose backend mints sessions at /api/session, embedding a fake embed on localhost.
const elementDist = resolve(import.meta.dirname, '../packages/element/dist');

type Page = Window & { PlatformEmbed: typeof ElementPackage; log: string[] };

const hostPage = (embedOrigin: string) => `<!doctype html><title>host</title>
<script src="/element/platform-embed.min.js"></script>
<script>
  window.log = [];
  for (const type of ['platform-ready', 'platform-navigate', 'platform-statechange'])
    document.addEventListener(type, (e) => log.push(type + ' ' + JSON.stringify(type === 'platform-statechange' ? e.detail.status : e.detail) + (e.message ? ' ' + e.message.surface : '')));
</script>
<platform-dashboard base-url="${embedOrigin}" public-id="p1" session-url="/api/session" color-scheme="dark" allow-export
  style="display:block;width:400px;height:300px"></platform-dashboard>`;

// Attribute mistakes, as a new user writes them in plain HTML with the script tag of the package
// as `pnpm pack` writes it: each element answers within the parse task (the script after them
// already sees it), in the words of the markup; the page goes on.
const mistakesPage = (embedOrigin: string, script: string) => `<!doctype html><title>mistakes</title>
<script src="/packed/${script}"></script>
<button id="counter" onclick="this.textContent = 'clicked ' + (++this.dataset.n)" data-n="0">clicked 0</button>
<platform-dashboard id="misspelled-id" base-url="${embedOrigin}" pubilc-id="p1" session-url="/api/session"></platform-dashboard>
<platform-dashboard id="misspelled-base" base-ur="${embedOrigin}" public-id="p1" session-url="/api/session"></platform-dashboard>
<platform-chat id="misspelled-session" base-url="${embedOrigin}" sesion-url="/api/session"></platform-chat>
<platform-dashboard id="bad-scheme" base-url="${embedOrigin}" public-id="p1" session-url="/api/session" color-scheme="drak"></platform-dashboard>
<platform-dashboard id="unknown-attribute" base-url="${embedOrigin}" public-id="p1" session-url="/api/session" allow-exprt part="embed" title="Sales"
  style="display:block;width:400px;height:300px"></platform-dashboard>
<script>
  window.atParse = Object.fromEntries([...document.querySelectorAll('[id]')].filter((el) => el.state).map((el) => [el.id, el.state.status + ' ' + (el.state.error?.message ?? '')]));
</script>
<p id="after">the rest of the page</p>`;

let host: RunningServer;
let embed: RunningServer;
let packed: string;
const sessionRequests: { method?: string; body: string }[] = [];

test.beforeAll(async () => {
  // The package's tarball, unpacked: its dist is what a CDN serves.
  packed = mkdtempSync(join(tmpdir(), 'platform-embed-element-pack-'));
  execFileSync('pnpm', ['pack', '--pack-destination', packed], { cwd: resolve(elementDist, '..'), stdio: 'pipe' });
  const tarball = readdirSync(packed).find((file) => file.endsWith('.tgz'))!;
  execFileSync('tar', ['-xzf', tarball], { cwd: packed });
  embed = await startFakeEmbed(() => host.origin);
  host = await startStaticServer({
    host: '127.0.0.1',
    mounts: { '/element/': elementDist, '/packed/': join(packed, 'package/dist') },
    pages: {
      '/': hostPage(embed.origin),
      '/mistakes/development': mistakesPage(embed.origin, 'platform-embed.js'),
      '/mistakes/production': mistakesPage(embed.origin, 'platform-embed.min.js'),
    },
    routes: async (req, res) => {
      if (req.url !== '/api/session') return false;
      let body = '';
      for await (const chunk of req) body += chunk;
      sessionRequests.push({ method: req.method, body });
      res.writeHead(req.method === 'POST' ? 200 : 405, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ sessionId: `minted-${sessionRequests.length}` }));
      return true;
    },
  });
});
test.afterAll(async () => {
  await Promise.all([host?.close(), embed?.close()]);
  if (packed) rmSync(packed, { recursive: true, force: true });
});

test('script tag: <platform-dashboard> across two origins with session-url, events, actions, reload and removal', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${host.origin}/`);
  await page.waitForFunction(() => (window as unknown as Page).log.some((l) => l.startsWith('platform-ready')));

  const mounted = await page.evaluate(() => {
    const { PlatformEmbed } = window as unknown as Page;
    const el = document.querySelector('platform-dashboard')!;
    return {
      globals: ['embedDashboard', 'createAction', 'defineElements', 'listenerCount'].map(
        (k) => typeof PlatformEmbed[k as keyof typeof PlatformEmbed],
      ),
      defined: customElements.get('platform-dashboard') === PlatformEmbed.PlatformDashboardElement,
      src: el.querySelector('iframe')!.src,
      status: el.state.status,
      listeners: PlatformEmbed.listenerCount(),
    };
  });
  expect(mounted).toEqual({
    globals: ['function', 'function', 'function', 'function'],
    defined: true,
    src: `${embed.origin}/embed/dashboard/p1?session=minted-1&allowExport=true`,
    status: 'ready',
    listeners: 1,
  });
  expect(sessionRequests).toEqual([{ method: 'POST', body: '' }]);

  // An action method reaches the frame (after the color scheme held until ready), and the frame's answer comes back as a DOM event.
  await page.evaluate(() => document.querySelector('platform-dashboard')!.navigate('/from-host'));
  await page.waitForFunction(() => (window as unknown as Page).log.some((l) => l.startsWith('platform-navigate')));
  const frame = page.frames().find((f) => f.url().startsWith(`${embed.origin}/embed/dashboard/p1`))!;
  expect(JSON.parse((await frame.evaluate(() => document.body.dataset.received))!)).toEqual([
    'set-color-scheme {"scheme":"dark"}',
    'navigate {"path":"/from-host"}',
  ]);

  // reload() asks the host backend for a fresh session.
  await page.evaluate(() => document.querySelector('platform-dashboard')!.reload());
  expect(await page.evaluate(() => document.querySelector('platform-dashboard iframe')!.getAttribute('src'))).toBe(
    `${embed.origin}/embed/dashboard/p1?session=minted-2&allowExport=true`,
  );
  expect(sessionRequests).toHaveLength(2);
  // The new frame is brought back to the path the host navigated to (the fake embed answers
  // the replayed navigate with a navigate event).
  await page.waitForFunction(() => (window as unknown as Page).log.filter((l) => l.startsWith('platform-navigate')).length == 2);

  // Removing the element destroys the embed.
  const removed = await page.evaluate(async () => {
    const { PlatformEmbed } = window as unknown as Page;
    const el = document.querySelector('platform-dashboard')!;
    const states: string[] = [];
    // Detached, the element's events no longer reach the document.
    el.addEventListener('platform-statechange', (e) => states.push(e.detail.status));
    el.remove();
    await new Promise((r) => setTimeout(r, 50));
    return { frames: document.querySelectorAll('iframe').length, listeners: PlatformEmbed.listenerCount(), states, handle: el.handle };
  });
  expect(removed).toEqual({ frames: 0, listeners: 0, states: ['destroyed'], handle: null });

  const log = await page.evaluate(() => (window as unknown as Page).log);
  expect(log).toEqual([
    'platform-statechange "loading"',
    'platform-statechange "ready"',
    'platform-ready {"embedTenant":null,"deploymentId":1,"mode":"signed","surface":"dashboard","publicId":"p1"} dashboard',
    'platform-navigate {"path":"/from-host"} dashboard',
    'platform-statechange "loading"',
    'platform-statechange "ready"',
    'platform-ready {"embedTenant":null,"deploymentId":1,"mode":"signed","surface":"dashboard","publicId":"p1"} dashboard',
    'platform-navigate {"path":"/from-host"} dashboard',
  ]);
  expect(errors).toEqual([]);
});

for (const build of ['development', 'production'] as const)
  test(`script tag (${build}): attribute mistakes in plain HTML cost their element, never the page, answered in the parse task`, async ({
    page,
  }) => {
    const errors: string[] = [];
    const lines: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => (m.type() == 'error' || m.type() == 'warning') && lines.push(`${m.type()} ${m.text()}`));
    await page.goto(`${host.origin}/mistakes/${build}`);
    const dev = build == 'development';
    expect(await page.evaluate(() => (window as unknown as { atParse: Record<string, string> }).atParse)).toEqual({
      'misspelled-id': `error [platform-embed] ${dev ? '<platform-dashboard> needs a public-id attribute (pubilc-id is not one: did you mean public-id?)' : 'public-id'}`,
      'misspelled-base': `error [platform-embed] ${dev ? '<platform-dashboard> needs a base-url attribute (base-ur is not one: did you mean base-url?)' : 'base-url'}`,
      'misspelled-session': `error [platform-embed] ${dev ? 'sesion-url is not an attribute of <platform-chat>: did you mean session-url? (Without a session it opens in private mode, where the viewer signs in.)' : 'sesion-url'}`,
      'bad-scheme': 'error [platform-embed] "color-scheme" must be light|dark|auto (got "drak")',
      'unknown-attribute': 'loading ',
    });
    // The embed without a mistake loads; the others have no frame (no private sign-in page either).
    await page.waitForFunction(() => document.querySelector<ElementPackage.PlatformElement>('#unknown-attribute')!.state.status == 'ready');
    expect(await page.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => f.parentElement!.id))).toEqual([
      'unknown-attribute',
    ]);
    // The page goes on: what follows the elements rendered, and it responds.
    await expect(page.locator('#after')).toHaveText('the rest of the page');
    await page.click('#counter');
    await page.click('#counter');
    await expect(page.locator('#counter')).toHaveText('clicked 2');
    // One console line per element in error (no listener hears them); a did-you-mean warning in development only.
    const reported = lines.filter((line) => line.startsWith('error EmbedError'));
    expect(reported).toHaveLength(4);
    expect(reported[3]).toContain('"color-scheme" must be light|dark|auto (got "drak")');
    expect(lines.filter((line) => line.startsWith('warning'))).toEqual(
      dev
        ? ['warning [platform-embed] <platform-dashboard>: unknown attribute "allow-exprt" is ignored: did you mean "allow-export"?']
        : [],
    );
    expect(errors).toEqual([]);
  });
