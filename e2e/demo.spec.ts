import { expect, test, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { HOSTS, startHost, type RunningHost } from '../examples/shared/hostServer.mjs';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { startStaticServer, type RunningServer } from './support/staticServer';

// The three demo hosts (script tag, React, Vue) on 127.0.0.1, the mock platform on localhost,
// and a hostile page on a third origin. Every host follows examples/shared/CONTRACT.md, so
// one suite drives all of them.
const root = resolve(import.meta.dirname, '..');

type Logged = { event: string; payload: Record<string, unknown> };
const logged = (page: Page): Promise<Logged[]> =>
  page
    .locator('[data-testid="event-log"] li[data-event]')
    .evaluateAll((items) =>
      items.map((li) => ({ event: (li as HTMLElement).dataset.event!, payload: JSON.parse(li.textContent || '{}') })),
    );
/** The host's own entries in its log: one per click on an action button (examples/shared/CONTRACT.md). */
const hostActions = (page: Page) =>
  page.locator('[data-testid="event-log"] li[data-action]').evaluateAll((items) =>
    items.map((li) => ({
      action: (li as HTMLElement).dataset.action!,
      sent: (li as HTMLElement).dataset.sent!,
      payload: JSON.parse(li.textContent || '{}'),
    })),
  );
/** What each button of a demo host sends: the action and its payload as the protocol carries them, or a reload. */
const SENT: Record<string, [string, Record<string, unknown>]> = {
  'scheme-dark': ['set-color-scheme', { scheme: 'dark' }],
  'scheme-light': ['set-color-scheme', { scheme: 'light' }],
  theme: ['set-theme', { primaryColor: '#e4572e', borderRadius: 12 }],
  locale: ['set-locale', { locale: 'es-MX' }],
  filter: ['set-filter', { filterUrlParameter: 'f_orders.status={"value":"completed"}' }],
  navigate: ['navigate', { path: '/widgets/revenue' }],
  refresh: ['refresh', {}],
  reload: ['reload', {}],
};
const names = async (page: Page) => (await logged(page)).map((e) => e.event);
const last = async (page: Page, event: string) => (await logged(page)).filter((e) => e.event == event).at(-1)?.payload;

let platform: MockPlatform;
let hostile: RunningServer;

test.beforeAll(async () => {
  platform = await startMockPlatform({ host: 'localhost' });
});
test.afterAll(async () => {
  await platform?.close();
  await hostile?.close();
});

for (const name of ['html', 'react', 'vue'] as const) {
  test.describe(`${name} host`, () => {
    let host: RunningHost;
    test.beforeAll(async () => {
      host = await startHost({
        name,
        mounts: HOSTS[name](root),
        platform: { baseUrl: platform.origin, apiKey: platform.apiKey, deploymentId: 1, publicId: 'sales-overview', mode: 'mock' },
      });
    });
    test.afterAll(async () => host?.close());

    const open = async (page: Page) => {
      await page.goto(`${host.origin}/`);
      await expect(page.getByTestId('status')).toHaveText('ready');
      await expect.poll(() => names(page)).toContain('dashboard-loaded');
      return page.frameLocator('#embed iframe');
    };

    test('the dashboard loads: ready, then dashboard-loaded, reach the host log', async ({ page }) => {
      await open(page);
      const events = await names(page);
      expect(events[0]).toBe('ready');
      expect(events.indexOf('dashboard-loaded')).toBeGreaterThan(0);
      expect(await last(page, 'ready')).toMatchObject({
        mode: 'signed',
        surface: 'dashboard',
        deploymentId: 1,
        publicId: 'sales-overview',
      });
      const src = await page.locator('#embed iframe').getAttribute('src');
      expect(src).toMatch(new RegExp(`^${platform.origin}/embed/dashboard/sales-overview\\?session=`));
      // One load, one session (the React host renders under <StrictMode>).
      expect(host.sessionsMinted()).toBe(1);
    });

    test('no request of the page fails: its icon is served (no /favicon.ico 404)', async ({ page }) => {
      const failed: string[] = [];
      page.on('response', (response) => response.status() >= 400 && failed.push(`${response.status()} ${response.url()}`));
      await open(page);
      const icon = await page.locator('link[rel="icon"]').getAttribute('href');
      expect(icon).toBeTruthy();
      expect((await page.request.get(new URL(icon!, host.origin).href)).status()).toBe(200);
      expect(failed).toEqual([]);
    });

    test("the viewer's actions in the embed reach the host as typed events", async ({ page }) => {
      const frame = await open(page);
      await frame.getByTestId('navigate').click();
      await expect.poll(() => last(page, 'navigate')).toMatchObject({ path: '/dashboards/sales-overview/details' });
      await frame.getByTestId('download-csv').click();
      await expect
        .poll(() => last(page, 'download'))
        .toEqual({ format: 'csv', target: 'widget', widgetId: 'by-status', title: 'Orders by status', rowCount: 4 });
      await frame.getByTestId('drilldown').click();
      await expect.poll(() => last(page, 'drilldown')).toMatchObject({ member: 'orders.revenue', value: 128430 });
      await frame.getByTestId('ai-query-input').fill('Top regions');
      await frame.getByTestId('ai-query').click();
      await expect
        .poll(async () => (await logged(page)).filter((e) => e.event == 'ai-query').map((e) => e.payload.status))
        .toEqual(['submitted', 'completed']);
      await frame.getByTestId('raise-error').click();
      await expect.poll(() => last(page, 'error')).toMatchObject({ fatal: false });
      await expect(page.getByTestId('status')).toHaveText('ready');
    });

    test("the host's actions visibly change the embed", async ({ page }) => {
      const frame = await open(page);
      await page.click('[data-action="scheme-dark"]');
      await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
      await page.click('[data-action="theme"]');
      await expect(frame.getByTestId('theme-primary')).toHaveText('#e4572e');
      await page.click('[data-action="locale"]');
      await expect(frame.getByTestId('locale')).toHaveText('es-MX');
      await page.click('[data-action="filter"]');
      await expect(frame.getByTestId('active-filters')).toHaveText('orders.status = {"value":"completed"}');
      await page.click('[data-action="navigate"]');
      await expect(frame.getByTestId('current-path')).toHaveText('/widgets/revenue');
      await page.click('[data-action="refresh"]');
      await expect(frame.getByTestId('refresh-count')).toHaveText('1');
      await expect(frame.getByTestId('rejected-actions')).toHaveText('0');
      // The README's screenshot: written to test-results/ on every run, and over docs/demo.png
      // only when asked (UPDATE_SCREENSHOT=1), so that running the tests leaves the tree clean.
      if (name == 'html') {
        const screenshot = process.env.UPDATE_SCREENSHOT === '1' ? resolve(root, 'docs/demo.png') : resolve(root, 'test-results/demo.png');
        mkdirSync(dirname(screenshot), { recursive: true });
        await page.screenshot({ path: screenshot });
      }
    });

    test('every button of the host adds its action to the log, beside the events', async ({ page }) => {
      await open(page);
      const buttons = await page.locator('[data-action]').evaluateAll((all) => all.map((b) => (b as HTMLElement).dataset.action!));
      expect(buttons.sort()).toEqual(Object.keys(SENT).sort());
      for (const [i, action] of Object.keys(SENT).entries()) {
        await page.click(`[data-action="${action}"]`);
        await expect.poll(async () => (await hostActions(page)).length).toBe(i + 1);
        const [sent, payload] = SENT[action]!;
        expect((await hostActions(page)).at(-1)).toEqual({ action, sent, payload });
      }
      await expect(page.getByTestId('status')).toHaveText('ready');
    });

    for (const width of [800, 1440]) {
      test(`at ${width} px, in English and in es-MX, nothing overflows its card and the whole dashboard fits the iframe`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: 1000 });
        const frame = await open(page);
        await expect(frame.locator('[data-testid="widget"][data-loaded="true"]')).toHaveCount(4);
        for (const locale of ['en', 'es-MX']) {
          if (locale == 'es-MX') {
            await page.click('[data-action="locale"]');
            await expect(frame.getByTestId('locale')).toHaveText('es-MX');
            await expect(frame.getByTestId('widget-value-revenue')).toContainText('USD');
          }
          await page.click('[data-action="refresh"]');
          await expect(frame.getByTestId('last-action')).toHaveText('refresh');
          const layout = await frame.locator('body').evaluate(() => {
            const overflowing = (element: Element) => element.scrollWidth > element.clientWidth;
            const describe = (element: Element) =>
              `${element.className || element.tagName} ${(element as HTMLElement).dataset.testid ?? ''}: ${element.scrollWidth} > ${element.clientWidth}`;
            const cards = [...document.querySelectorAll('.bar, .widget, .panel, .status, .meta, .ask')];
            const input = document.querySelector<HTMLInputElement>('[data-testid="ai-query-input"]')!;
            return {
              cards: cards.length,
              overflowingCards: cards.filter(overflowing).map(describe),
              // An input scrolls its text instead of overflowing: compare the question's width with the box.
              inputClipped: input.scrollWidth > input.clientWidth,
              pageWider: document.documentElement.scrollWidth > innerWidth,
              contentHeight: document.documentElement.scrollHeight,
              frameHeight: innerHeight,
            };
          });
          expect(layout.cards, locale).toBeGreaterThan(6);
          expect(layout.overflowingCards, locale).toEqual([]);
          expect(layout.inputClipped, locale).toBe(false);
          expect(layout.pageWider, locale).toBe(false);
          expect(layout.contentHeight, `${locale}: the iframe cuts the dashboard`).toBeLessThanOrEqual(layout.frameHeight);
        }
        // Every label of the embed's own interface is translated.
        for (const [testId, spanish] of [
          ['navigate', 'Navegar'],
          ['download-csv', 'Exportar CSV'],
          ['drilldown', 'Ver detalle'],
          ['raise-error', 'Provocar error'],
          ['ai-query', 'Preguntar a la IA'],
          ['header-edit', 'Editar'],
          ['header-duplicate', 'Duplicar'],
          ['dashboard-title', 'Resumen de ventas'],
        ] as const)
          await expect(frame.getByTestId(testId)).toHaveText(spanish);
        await expect(frame.locator('[data-widget-id="revenue"] h2')).toHaveText('Ingresos');
        await expect(frame.locator('.status dt').first()).toHaveText('Ruta');
      });
    }

    test("the host's event log follows its newest entry", async ({ page }) => {
      const frame = await open(page);
      for (let click = 0; click < 14; click++) await frame.getByTestId('navigate').click();
      await expect.poll(async () => (await names(page)).filter((event) => event == 'navigate').length).toBe(14);
      const list = page.getByTestId('event-log');
      expect(await list.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
      await expect
        .poll(() => list.evaluate((element) => element.scrollHeight - element.clientHeight - element.scrollTop))
        .toBeLessThanOrEqual(1);
    });

    test('reload mints a new session and keeps the color scheme; a reused session is refused by the platform, and the embed heals', async ({
      page,
    }) => {
      const frame = await open(page);
      await page.click('[data-action="scheme-dark"]');
      await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
      const firstSrc = await page.locator('#embed iframe').getAttribute('src');
      const minted = host.sessionsMinted();

      await page.click('[data-action="reload"]');
      await expect.poll(() => page.locator('#embed iframe').getAttribute('src')).not.toBe(firstSrc);
      await expect(page.getByTestId('status')).toHaveText('ready');
      expect(host.sessionsMinted()).toBe(minted + 1);
      expect((await names(page)).filter((e) => e == 'ready')).toHaveLength(2);
      await expect(page.frameLocator('#embed iframe').getByTestId('color-scheme')).toHaveText('dark');

      // Loading the frame again with its spent session: the platform refuses it with a fatal
      // error, and the SDK heals on its own: a fresh session, the color scheme kept.
      await page.locator('#embed iframe').evaluate((f: HTMLIFrameElement) => f.setAttribute('src', f.getAttribute('src')!));
      await expect.poll(() => last(page, 'error')).toMatchObject({ fatal: true });
      await expect.poll(() => host.sessionsMinted()).toBe(minted + 2);
      await expect(page.getByTestId('status')).toHaveText('ready');
      await expect(page.frameLocator('#embed iframe').getByTestId('color-scheme')).toHaveText('dark');
      await expect(page.getByTestId('embed-error')).toBeHidden();
    });

    test('a session route that fails shows its status and message in the page, not a blank box', async ({ page }) => {
      const closed = await startStaticServer({ host: '127.0.0.1' });
      await closed.close();
      const logged: string[] = [];
      const unreachable = await startHost({
        name,
        mounts: HOSTS[name](root),
        platform: { baseUrl: closed.origin, apiKey: platform.apiKey, deploymentId: 1, publicId: 'sales-overview', mode: 'mock' },
        log: (line) => logged.push(line),
      });
      try {
        await page.goto(`${unreachable.origin}/`);
        // After the retries (the first three failures are retried with backoff: about 2-4 s).
        await expect(page.getByTestId('status')).toHaveText('error', { timeout: 15_000 });
        const failure = page.getByTestId('embed-error');
        await expect(failure).toBeVisible();
        await expect(failure).toContainText('session');
        // The SDK read the route's Response: its status and its message (here the demo's cause).
        await expect(failure).toContainText('HTTP 502');
        await expect(failure).toContainText(`could not reach ${closed.origin}`);
        await expect(failure).not.toContainText(platform.apiKey);
        // The host's server logs the cause of each failed call (the first and each retry).
        expect(logged.length).toBeGreaterThan(0);
        for (const line of logged)
          expect(line).toContain(`${name} host, session route: [platform-embed/server] generate-session: could not reach ${closed.origin}`);
      } finally {
        await unreachable.close();
      }
    });

    test('a hostile frame on a third origin posting perfect envelopes changes nothing', async ({ page }) => {
      await open(page);
      hostile ??= await startStaticServer({
        host: '127.0.0.1',
        routes: (req, res) => {
          const target = new URL(req.url ?? '/', 'http://x').searchParams.get('target') ?? '';
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(`<!doctype html><script>
            const m = (type, payload) => ({ source: 'platform-embed', direction: 'event', type: 'platform:event:' + type, payload, timestamp: Date.now(), surface: 'dashboard' });
            setInterval(() => {
              parent.postMessage(m('navigate', { path: '/hostile' }), ${JSON.stringify(target)});
              parent.postMessage(m('error', { message: 'hostile', fatal: true }), ${JSON.stringify(target)});
            }, 10);
          </script>`);
          return true;
        },
      });
      const before = (await logged(page)).length;
      await page.evaluate(
        (src) => {
          const f = document.createElement('iframe');
          f.src = src;
          f.style.display = 'none';
          document.body.append(f);
        },
        `${hostile.origin}/?target=${encodeURIComponent(host.origin)}`,
      );
      await page.waitForTimeout(600);
      expect((await logged(page)).length).toBe(before);
      expect(JSON.stringify(await logged(page))).not.toContain('hostile');
      await expect(page.getByTestId('status')).toHaveText('ready');
    });
  });
}

test('pnpm demo says which port is taken and how to choose others, before building and without a stack trace', async () => {
  const taken = createServer();
  await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
  const takenPort = (taken.address() as AddressInfo).port;
  const run = (script: string) =>
    new Promise<{ code: number | null; output: string }>((done) => {
      const child = spawn(process.execPath, [resolve(root, script)], {
        cwd: root,
        env: { ...process.env, MOCK_PORT: '0', HTML_PORT: String(takenPort), REACT_PORT: '0', VUE_PORT: '0', NEXT_PORT: '0' },
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.once('exit', (code) => done({ code, output }));
    });
  try {
    // The check `pnpm demo` runs first, and demo.mjs itself.
    for (const script of ['examples/shared/demoPorts.mjs', 'examples/shared/demo.mjs']) {
      const { code, output } = await run(script);
      expect(code, script).toBe(1);
      expect(output).toContain(`port ${takenPort} on 127.0.0.1 (the script tag host, HTML_PORT) is already in use`);
      expect(output).toContain('MOCK_PORT=4200 HTML_PORT=5271 REACT_PORT=5272 VUE_PORT=5273 NEXT_PORT=5274 pnpm demo');
      expect(output).not.toContain('EADDRINUSE');
      expect(output).not.toMatch(/^\s+at /m);
    }
  } finally {
    taken.close();
  }
  // After the set-up check (scripts/preflight.mjs), before anything is built.
  const demoScript = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).scripts.demo as string;
  expect(demoScript).toMatch(/^node scripts\/preflight\.mjs "pnpm demo" && node examples\/shared\/demoPorts\.mjs && /);
});
