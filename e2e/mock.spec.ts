import { expect, test, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import { startMockPlatform, type MockPlatform } from '../packages/mock/src/index';
import { startStaticServer, type RunningServer } from './support/staticServer';

// The mock platform on localhost embeds into a host page on 127.0.0.1 (another origin, another
// site). The host page loads the core's build and gets its sessions from its own backend route,
// which calls the mock's generate-session with the API key, as a real host does.
const coreDist = resolve(import.meta.dirname, '../packages/core/dist');

let platform: MockPlatform;
let host: RunningServer;

test.beforeAll(async () => {
  platform = await startMockPlatform({
    host: 'localhost',
    userAttributes: [{ name: 'region', type: 'string' }],
    embedTenants: [{ name: 'acme-corp' }],
  });
  host = await startStaticServer({
    host: '127.0.0.1',
    mounts: { '/core/': coreDist },
    pages: { '/': '<!doctype html><title>host</title><div id="c" style="width:960px;height:760px"></div>' },
    routes: async (req, res) => {
      if (req.url != '/api/session' || req.method != 'POST') return false;
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const upstream = await fetch(platform.url('/api/v1/embed/generate-session'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Api-Key ${platform.apiKey}` },
        body: Buffer.concat(chunks).toString() || JSON.stringify({ deploymentId: 1, externalId: 'jane@example.com' }),
      });
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(await upstream.text());
      return true;
    },
  });
});
test.afterAll(async () => {
  await Promise.all([platform?.close(), host?.close()]);
});
test.beforeEach(() => platform.reset());

interface Recorded {
  type: string;
  payload: Record<string, unknown>;
  surface: string;
}
type HostWindow = typeof globalThis & {
  events: Recorded[];
  sessionCalls: number;
  sessions: string[];
  // The embed handle; typed loosely here, the core's types are checked in its own tests.
  h: {
    ready: Promise<unknown>;
    getState(): { status: string; error: { code: string; message: string } | null };
    iframe: HTMLIFrameElement | null;
    reload(session?: string): Promise<unknown>;
    setColorScheme(s: string): void;
    setTheme(t: object): void;
    setLocale(l: string): void;
    setFilter(view: string, dimension: string, value: object): void;
    navigate(path: string): void;
    refresh(): void;
  };
};

/** Opens the host page and mounts an embed; `session: false` mounts without one (private mode). */
async function mount(
  page: Page,
  surface: 'dashboard' | 'chat' | 'app',
  options: Record<string, unknown> = {},
  request?: object,
  baseUrl = platform.origin,
) {
  await page.goto(`${host.origin}/`);
  await page.evaluate(
    async ({ surface, options, request, baseUrl }) => {
      const core = await import(`${location.origin}/core/index.mjs`);
      const w = window as unknown as HostWindow;
      w.events = [];
      w.sessionCalls = 0;
      w.sessions = [];
      const session =
        options.session === false
          ? undefined
          : async () => {
              w.sessionCalls++;
              const res = await fetch('/api/session', { method: 'POST', body: request ? JSON.stringify(request) : '' });
              const body = await res.json();
              w.sessions.push(body.sessionId);
              return body;
            };
      const { session: _drop, ...rest } = options;
      const embed = { dashboard: core.embedDashboard, chat: core.embedChat, app: core.embedApp }[surface];
      w.h = embed({ container: '#c', baseUrl, session, ...rest });
      (w.h as unknown as { on(t: string, f: (m: Recorded) => void): void }).on('*', (m) =>
        w.events.push({ type: m.type.replace('platform:event:', ''), payload: m.payload, surface: m.surface }),
      );
    },
    { surface, options, request, baseUrl },
  );
  return page.frameLocator('#c iframe');
}

const events = (page: Page) => page.evaluate(() => (window as unknown as HostWindow).events);
const types = async (page: Page) => (await events(page)).map((e) => e.type);
const last = async (page: Page, type: string) => (await events(page)).filter((e) => e.type == type).at(-1);

test('the dashboard loads: ready first, then view, then dashboard-loaded, with the widgets visible', async ({ page }) => {
  const frame = await mount(page, 'dashboard', { publicId: 'sales-overview' });
  await expect.poll(() => types(page)).toEqual(['ready', 'view', 'dashboard-loaded']);
  const [ready, view, loaded] = await events(page);
  expect(ready).toEqual({
    type: 'ready',
    surface: 'dashboard',
    payload: { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard', publicId: 'sales-overview' },
  });
  expect(view!.payload).toEqual({
    surface: 'dashboard',
    path: '/dashboards/sales-overview',
    publicId: 'sales-overview',
    title: 'Sales overview',
  });
  expect(loaded!.payload).toEqual({ publicId: 'sales-overview', widgetCount: 4, loadDurationMs: expect.any(Number) });
  await expect(frame.getByTestId('widget')).toHaveCount(4);
  await expect(frame.locator('[data-testid="widget"][data-loaded="true"]')).toHaveCount(4);
  await expect(frame.getByTestId('dashboard-title')).toHaveText('Sales overview');
  await expect(frame.getByTestId('host-origin')).toHaveText(host.origin);
  expect(await page.evaluate(() => (window as unknown as HostWindow).h.getState().status)).toBe('ready');
  // The spent session is out of the frame's address bar.
  expect(page.frames()[1]!.url()).not.toContain('session=');
});

test('each viewer button in the frame yields its event with its payload', async ({ page }) => {
  const frame = await mount(page, 'dashboard', { publicId: 'sales-overview', allowExport: true });
  await expect.poll(() => types(page)).toContain('dashboard-loaded');

  await frame.getByTestId('navigate').click();
  await expect
    .poll(() => last(page, 'navigate'))
    .toMatchObject({ payload: { path: '/dashboards/sales-overview/details', previousPath: '/dashboards/sales-overview' } });
  expect((await last(page, 'view'))!.payload).toMatchObject({ path: '/dashboards/sales-overview/details' });
  await expect(frame.getByTestId('current-path')).toHaveText('/dashboards/sales-overview/details');

  await frame.getByTestId('download-csv').click();
  await expect
    .poll(() => last(page, 'download'))
    .toEqual({
      type: 'download',
      surface: 'dashboard',
      payload: { format: 'csv', target: 'widget', widgetId: 'by-status', title: 'Orders by status', rowCount: 4 },
    });
  await frame.getByTestId('download-png').click();
  await expect
    .poll(() => last(page, 'download'))
    .toMatchObject({ payload: { format: 'png', target: 'dashboard', title: 'Sales overview' } });

  await frame.getByTestId('drilldown').click();
  await expect
    .poll(() => last(page, 'drilldown'))
    .toMatchObject({ payload: { member: 'orders.revenue', value: 128430, widgetId: 'revenue' } });

  await frame.getByTestId('ai-query-input').fill('Revenue by region');
  await frame.getByTestId('ai-query').click();
  await expect
    .poll(async () => (await events(page)).filter((e) => e.type == 'ai-query').map((e) => e.payload.status))
    .toEqual(['submitted', 'completed']);
  const [submitted, completed] = (await events(page)).filter((e) => e.type == 'ai-query');
  expect(submitted!.payload).toMatchObject({ query: 'Revenue by region', chatId: expect.any(String) });
  expect(completed!.payload.chatId).toBe(submitted!.payload.chatId);
  await expect(frame.getByTestId('ai-answer').first()).toContainText('Revenue by region');

  await frame.getByTestId('raise-error').click();
  await expect
    .poll(() => last(page, 'error'))
    .toMatchObject({ payload: { message: expect.stringContaining('Query failed'), name: 'QueryError', fatal: false } });
  await expect(frame.getByTestId('error-banner')).toBeVisible();
  // A non-fatal error leaves the embed ready.
  expect(await page.evaluate(() => (window as unknown as HostWindow).h.getState().status)).toBe('ready');
  expect((await types(page)).filter((t) => t == 'ready')).toHaveLength(1);
});

test('without allowExport=true there is no CSV download; session settings can hide the dashboard chat', async ({ page }) => {
  const frame = await mount(
    page,
    'dashboard',
    { publicId: 'sales-overview' },
    { deploymentId: 1, externalId: 'jane', settings: { showDashboardChat: false } },
  );
  await expect.poll(() => types(page)).toContain('dashboard-loaded');
  await expect(frame.getByTestId('drilldown')).toBeVisible();
  await expect(frame.getByTestId('download-csv')).toHaveCount(0);
  await expect(frame.getByTestId('export-menu')).toHaveCount(0);
  await expect(frame.getByTestId('ai-query')).toHaveCount(0);
  await expect(frame.getByTestId('chat-hidden')).toBeVisible();
});

test('each host action visibly changes the embed', async ({ page }) => {
  const frame = await mount(page, 'dashboard', { publicId: 'sales-overview' });
  await expect.poll(() => types(page)).toContain('dashboard-loaded');
  const revenue = frame.getByTestId('widget-value-revenue');
  const before = await revenue.textContent();
  const html = frame.locator('html');

  await page.evaluate(() => (window as unknown as HostWindow).h.setColorScheme('dark'));
  await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
  await expect(html).toHaveAttribute('data-color-scheme', 'dark');
  await expect(frame.locator('body')).toHaveCSS('background-color', 'rgb(15, 19, 32)');

  await page.evaluate(() => (window as unknown as HostWindow).h.setTheme({ primaryColor: '#ff0000', borderRadius: 2 }));
  await expect(frame.getByTestId('theme-primary')).toHaveText('#ff0000');
  await expect(frame.getByTestId('navigate')).toHaveCSS('background-color', 'rgb(255, 0, 0)');
  await expect(frame.getByTestId('navigate')).toHaveCSS('border-radius', '2px');

  await page.evaluate(() => (window as unknown as HostWindow).h.setLocale('de-DE'));
  await expect(frame.getByTestId('locale')).toHaveText('de-DE');
  await expect(html).toHaveAttribute('lang', 'de-DE');
  await expect(revenue).toContainText('128.430');

  await page.evaluate(() => (window as unknown as HostWindow).h.setFilter('orders', 'status', { value: 'completed' }));
  await expect(frame.getByTestId('active-filters')).toHaveText('orders.status = {"value":"completed"}');
  await expect(revenue).not.toHaveText(before!);
  await expect(revenue).not.toContainText('128.430');
  // A filter the dashboard has no control for is ignored, like the platform does.
  await page.evaluate(() => (window as unknown as HostWindow).h.setFilter('customers', 'country', { value: 'FR' }));
  await expect(frame.getByTestId('ignored-filters')).toHaveText('customers.country');
  await expect(frame.getByTestId('active-filters')).toHaveText('orders.status = {"value":"completed"}');

  await page.evaluate(() => (window as unknown as HostWindow).h.navigate('/dashboards/sales-overview/custom'));
  await expect(frame.getByTestId('current-path')).toHaveText('/dashboards/sales-overview/custom');
  await expect
    .poll(() => last(page, 'navigate'))
    .toMatchObject({ payload: { path: '/dashboards/sales-overview/custom', previousPath: '/dashboards/sales-overview' } });

  await page.evaluate(() => {
    const { h } = window as unknown as HostWindow;
    h.refresh();
    h.refresh();
  });
  await expect(frame.getByTestId('refresh-count')).toHaveText('2');
  await expect(frame.getByTestId('rejected-actions')).toHaveText('0');
});

test('launch options are honoured', async ({ page }) => {
  const frame = await mount(page, 'dashboard', {
    publicId: 'sales-overview',
    allowExport: true,
    showDashboardExportMenu: false,
    showDashboardTitle: false,
    showDashboardEditButton: false,
    locale: 'fr-FR',
    filters: { 'orders.status': { value: 'shipped' } },
    timeGrains: { 'orders.created_at': 'month' },
  });
  await expect.poll(() => types(page)).toContain('dashboard-loaded');
  await expect(frame.getByTestId('dashboard-header')).toBeVisible();
  await expect(frame.getByTestId('dashboard-title')).toHaveCount(0);
  await expect(frame.getByTestId('header-edit')).toHaveCount(0);
  await expect(frame.getByTestId('header-duplicate')).toBeVisible();
  await expect(frame.getByTestId('export-menu')).toHaveCount(0);
  await expect(frame.getByTestId('download-csv')).toBeVisible();
  await expect(frame.getByTestId('locale')).toHaveText('fr-FR');
  await expect(frame.getByTestId('active-filters')).toHaveText('orders.status = {"value":"shipped"}');
  const options = JSON.parse((await frame.getByTestId('launch-options').textContent())!);
  expect(options).toMatchObject({ allowExport: true, showDashboardExportMenu: false, timeGrains: { 'orders.created_at': 'month' } });

  await mount(page, 'dashboard', { publicId: 'sales-overview', showDashboardHeader: false });
  await expect.poll(() => types(page)).toContain('dashboard-loaded');
  await expect(page.frameLocator('#c iframe').getByTestId('dashboard-header')).toHaveCount(0);
});

test('reload() mints a new session; a reused session is refused with a fatal error, and the SDK heals on a fresh one', async ({ page }) => {
  await mount(page, 'dashboard', { publicId: 'sales-overview' });
  await expect.poll(() => types(page)).toContain('dashboard-loaded');
  expect(await page.evaluate(() => (window as unknown as HostWindow).sessionCalls)).toBe(1);

  await page.evaluate(() => (window as unknown as HostWindow).h.reload());
  const calls = await page.evaluate(() => (window as unknown as HostWindow).sessionCalls);
  expect(calls).toBe(2);
  const sessions = await page.evaluate(() => (window as unknown as HostWindow).sessions);
  expect(new Set(sessions).size).toBe(2);
  expect((await types(page)).filter((t) => t == 'ready')).toHaveLength(2);
  expect(platform.sessions().map((s) => s.usedAt !== undefined)).toEqual([true, true]);

  // A session another load already spent (the SDK itself never reuses one it used): the mock
  // refuses it with a fatal error, and the SDK loads again with a fresh session from the function.
  const spent = await platform.mintSession({ deploymentId: 1, externalId: 'jane@example.com' });
  expect((await fetch(platform.url(`/embed/dashboard/sales-overview?session=${spent}`))).status).toBe(200);
  await page.evaluate((spent) => (window as unknown as HostWindow).h.reload(spent).catch(() => {}), spent);
  await expect
    .poll(() => last(page, 'error'))
    .toMatchObject({ payload: { fatal: true, name: 'SessionError', message: expect.stringContaining('already used') } });
  await expect.poll(() => page.evaluate(() => (window as unknown as HostWindow).h.getState().status)).toBe('ready');
  expect(await page.evaluate(() => (window as unknown as HostWindow).sessionCalls)).toBe(3);
  expect((await types(page)).filter((t) => t == 'ready')).toHaveLength(3);
});

test('private chat: sign in inside the frame, then ai-query reports the chat surface', async ({ page }) => {
  const frame = await mount(page, 'chat', { session: false });
  await expect(frame.getByTestId('sign-in-screen')).toBeVisible();
  expect(await types(page)).toEqual([]);
  await frame.getByTestId('sign-in').click();
  await expect.poll(() => types(page)).toEqual(['ready', 'view']);
  expect((await events(page))[0]!.payload).toEqual({ embedTenant: null, deploymentId: null, mode: 'private', surface: 'chat' });
  await frame.getByTestId('ai-query').click();
  await expect.poll(() => last(page, 'ai-query')).toMatchObject({ surface: 'chat', payload: { status: 'completed' } });
});

test('the creator-mode app reports the app surface and its embed tenant', async ({ page }) => {
  const frame = await mount(
    page,
    'app',
    { deploymentId: 1 },
    { deploymentId: 1, externalId: 'jane', creatorMode: true, embedTenantName: 'acme-corp' },
  );
  await expect.poll(() => types(page)).toEqual(['ready', 'view']);
  expect((await events(page))[0]!).toEqual({
    type: 'ready',
    surface: 'app',
    payload: { embedTenant: 'acme-corp', deploymentId: 1, mode: 'signed', surface: 'app' },
  });
  await frame.getByTestId('navigate').click();
  await expect
    .poll(() => last(page, 'navigate'))
    .toMatchObject({ surface: 'app', payload: { path: '/app/workbooks', previousPath: '/app' } });
  await expect(frame.getByTestId('embed-tenant')).toHaveText('acme-corp');
});

test('a host origin outside allowedOrigins gets nothing: no ready, the frame says why', async ({ page }) => {
  const strict = await startMockPlatform({ host: 'localhost', allowedOrigins: ['https://app.example.com'] });
  try {
    const session = await strict.mintSession({ deploymentId: 1, externalId: 'jane' });
    await page.goto(`${host.origin}/`);
    await page.evaluate(
      async ({ baseUrl, session }) => {
        const core = await import(`${location.origin}/core/index.mjs`);
        const w = window as unknown as HostWindow;
        w.events = [];
        w.h = core.embedDashboard({ container: '#c', baseUrl, publicId: 'sales-overview', session, readyTimeout: 1500 });
        (w.h as unknown as { on(t: string, f: (m: Recorded) => void): void }).on('*', (m) =>
          w.events.push({ type: m.type, payload: m.payload, surface: m.surface }),
        );
      },
      { baseUrl: strict.origin, session },
    );
    await expect(page.frameLocator('#c iframe').getByTestId('host-refused')).toContainText(host.origin);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as HostWindow).h.getState().error?.code ?? null), { timeout: 5000 })
      .toBe('timeout');
    expect(await events(page)).toEqual([]);
  } finally {
    await strict.close();
  }
});

test('the embed takes actions only from its parent on the host origin, and only valid ones', async ({ page }) => {
  // A frame of a third origin on the same host page posts perfect actions to the embed.
  const hostile = await startStaticServer({
    host: '127.0.0.1',
    pages: {
      '/': `<!doctype html><script>
        setInterval(() => parent.frames[0].postMessage({ source: 'platform-embed', direction: 'action', type: 'platform:action:set-color-scheme', payload: { scheme: 'dark' }, timestamp: Date.now() }, '*'), 20);
      </script>`,
    },
  });
  try {
    const frame = await mount(page, 'dashboard', { publicId: 'sales-overview' });
    await expect.poll(() => types(page)).toContain('dashboard-loaded');
    await page.evaluate((src) => document.body.append(Object.assign(document.createElement('iframe'), { src })), `${hostile.origin}/`);
    await page.waitForTimeout(400);
    await expect(frame.getByTestId('color-scheme')).toHaveText('light');
    await expect(frame.getByTestId('rejected-actions')).toHaveText('0');

    // From the real parent and origin, but not valid: rejected with the catalog's reason.
    await page.evaluate((origin) => {
      const win = (window as unknown as HostWindow).h.iframe!.contentWindow!;
      win.postMessage(
        {
          source: 'platform-embed',
          direction: 'action',
          type: 'platform:action:set-color-scheme',
          payload: { scheme: 'purple' },
          timestamp: Date.now(),
        },
        origin,
      );
      win.postMessage(
        { source: 'platform-embed', direction: 'action', type: 'platform:action:__proto__', payload: {}, timestamp: Date.now() },
        origin,
      );
    }, platform.origin);
    await expect(frame.getByTestId('rejected-actions')).toHaveText('2: unknown action type');
    await expect(frame.getByTestId('color-scheme')).toHaveText('light');
    await page.evaluate(() => (window as unknown as HostWindow).h.setColorScheme('dark'));
    await expect(frame.getByTestId('color-scheme')).toHaveText('dark');
  } finally {
    await hostile.close();
  }
});
