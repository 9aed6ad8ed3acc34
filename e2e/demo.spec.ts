import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
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
    .locator('[data-testid="event-log"] li')
    .evaluateAll((items) =>
      items.map((li) => ({ event: (li as HTMLElement).dataset.event!, payload: JSON.parse(li.textContent || '{}') })),
    );
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
      if (name == 'html') {
        mkdirSync(resolve(root, 'docs'), { recursive: true });
        await page.screenshot({ path: resolve(root, 'docs/demo.png') });
      }
    });

    test('reload mints a new session and keeps the color scheme; a reused session is refused by the platform', async ({ page }) => {
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

      // Loading the frame again with its spent session: the platform refuses it, the embed
      // reports a fatal error, and the host shows the error state.
      await page.locator('#embed iframe').evaluate((f: HTMLIFrameElement) => f.setAttribute('src', f.getAttribute('src')!));
      await expect.poll(() => last(page, 'error')).toMatchObject({ fatal: true });
      await expect(page.getByTestId('status')).toHaveText('error');
      await expect(page.frameLocator('#embed iframe').getByTestId('fatal-error')).toBeVisible();
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
