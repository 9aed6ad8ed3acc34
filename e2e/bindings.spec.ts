import { expect, test, type Frame, type Page } from '@playwright/test';
import { resolve } from 'node:path';
import type * as ElementPackage from '../packages/element/src/index';
import type { ReactFixture } from './apps/reactClient';
import type { VueFixture } from './apps/vueClient';
import { bundleFixtures, type Fixtures } from './support/bundleFixtures';
import { startFakeEmbed } from './support/fakeEmbed';
import { startStaticServer, type RunningServer } from './support/staticServer';

// The three bindings as a user gets them (the built packages, bundled with esbuild in
// development mode, React under <StrictMode>), driven from outside act() in real Chromium: a
// host page on 127.0.0.1 whose backend mints and counts sessions, embedding the fake embed on
// localhost, which records every action it receives in its body's data-received.

type Props = { publicId: string; colorScheme?: 'light' | 'dark' };
type Win = Window & { app: ReactFixture & VueFixture; PlatformEmbed: typeof ElementPackage };

const elementDist = resolve(import.meta.dirname, '../packages/element/dist');

let fixtures: Fixtures;
let host: RunningServer;
let embed: RunningServer;
let sessions = 0;

const page = (body: string) =>
  `<!doctype html><html><head><title>host</title><link rel="icon" href="data:,"></head><body>${body}</body></html>`;
const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

test.beforeAll(async () => {
  test.setTimeout(60_000);
  fixtures = await bundleFixtures();
  embed = await startFakeEmbed(() => host.origin);
  host = await startStaticServer({
    host: '127.0.0.1',
    mounts: { '/build/': fixtures.clientDir, '/element/': elementDist },
    pages: Object.fromEntries(
      (['react19', 'react18', 'vue'] as const).map((app) => [
        `/${app}`,
        page(`<div id="root"></div><script src="/build/${app}.js"></script>`),
      ]),
    ),
    routes: async (req, res) => {
      const url = new URL(req.url ?? '/', host.origin);
      const query = Object.fromEntries(url.searchParams) as Props;
      if (url.pathname === '/api/session') {
        for await (const _ of req); // drain the (empty) body
        if (req.method !== 'POST') return (res.writeHead(405).end(), true);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ sessionId: `minted-${++sessions}` }));
        return true;
      }
      // The server side of hydration: the page rendered by React 18/19 or Vue on each request.
      const ssr = /^\/ssr\/(react19|react18|vue)$/.exec(url.pathname)?.[1] as keyof Fixtures['render'] | undefined;
      if (ssr) {
        const props = { ...query, baseUrl: embed.origin };
        const html = await fixtures.render[ssr](props);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          page(
            `<div id="root">${html}</div><script src="/build/${ssr}.js"></script><script>app.hydrate(${JSON.stringify(props)})</script>`,
          ),
        );
        return true;
      }
      // The script-tag build for development, and the element written in the page's HTML.
      if (url.pathname === '/element') {
        const scheme = query.colorScheme ? ` color-scheme="${attribute(query.colorScheme)}"` : '';
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          page(`<script src="/element/platform-embed.js"></script>
<platform-dashboard base-url="${attribute(embed.origin)}" public-id="${attribute(query.publicId)}" session-url="/api/session"${scheme}
  style="display:block;width:400px;height:300px"></platform-dashboard>`),
        );
        return true;
      }
      return false;
    },
  });
});
test.afterAll(async () => {
  await Promise.all([host?.close(), embed?.close()]);
  fixtures?.remove();
});
test.beforeEach(() => {
  sessions = 0;
});

// Every console error or warning (React's and Vue's development warnings, hydration mismatches) and uncaught error
// fails the test; the first few are reported (a render loop logs thousands).
const problems = new WeakMap<Page, string[]>();
test.beforeEach(({ page }) => {
  const list: string[] = [];
  problems.set(page, list);
  const add = (problem: string) => list.length < 5 && list.push(problem.slice(0, 300));
  page.on('pageerror', (error) => add(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') add(`${message.type()}: ${message.text()}`);
  });
});
test.afterEach(({ page }) => {
  expect(problems.get(page)).toEqual([]);
});

/** One way to drive a binding: open a page with it mounted, change its props, act through its ref. */
interface Driver {
  name: string;
  open(page: Page, props: Props): Promise<void>;
  change(page: Page, props: Partial<Props>): Promise<void>;
  setColorScheme(page: Page, scheme: 'dark' | 'light'): Promise<void>;
  /** The binding's view of the state (the handle's, the template ref's, the element's). */
  status(page: Page): Promise<string | undefined>;
  /** The controller; checked to stay the same object across a reload. */
  isSameHandle(page: Page): Promise<boolean>;
}

const framework = (app: 'react19' | 'react18' | 'vue'): Driver => ({
  name: { react19: 'React 19 (createRoot, StrictMode)', react18: 'React 18 (createRoot, StrictMode)', vue: 'Vue (createApp)' }[app],
  async open(page, props) {
    await page.goto(`${host.origin}/${app}`);
    await page.evaluate((props) => (window as unknown as Win).app.mount(props), { ...props, baseUrl: embed.origin });
  },
  change: (page, props) => page.evaluate((props) => (window as unknown as Win).app.render(props), props),
  // Through the ref: React's ref.current, Vue's template ref (not the controller behind it).
  setColorScheme: (page, scheme) =>
    page.evaluate(
      ([app, scheme]) => {
        const fixture = (window as unknown as Win).app;
        (app === 'vue' ? fixture.ref()! : fixture.handle()!).setColorScheme(scheme);
      },
      [app, scheme] as const,
    ),
  status: (page) =>
    page.evaluate((app) => {
      const fixture = (window as unknown as Win).app;
      return app === 'vue' ? fixture.ref()?.state.status : fixture.handle()?.getState().status;
    }, app),
  isSameHandle: (page) =>
    page.evaluate(() => {
      const w = window as unknown as Win & { firstHandle?: unknown };
      w.firstHandle ??= w.app.handle();
      return w.firstHandle === w.app.handle();
    }),
});

const element: Driver = {
  name: 'custom element (script tag, development build)',
  open: async (page, props) => void (await page.goto(`${host.origin}/element?${new URLSearchParams(props)}`)),
  change: (page, props) =>
    page.evaluate((props) => {
      const el = document.querySelector('platform-dashboard')!;
      for (const [name, value] of Object.entries(props))
        el.setAttribute(
          name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()),
          value,
        );
    }, props),
  setColorScheme: (page, scheme) => page.evaluate((scheme) => document.querySelector('platform-dashboard')!.setColorScheme(scheme), scheme),
  status: (page) => page.evaluate(() => document.querySelector('platform-dashboard')!.state.status),
  isSameHandle: (page) =>
    page.evaluate(() => {
      const w = window as unknown as { firstHandle?: unknown };
      const el = document.querySelector('platform-dashboard')!;
      w.firstHandle ??= el.handle;
      return w.firstHandle === el.handle;
    }),
};

const DRIVERS = [framework('react19'), framework('react18'), framework('vue'), element];

/** The page's iframes (their src), its live message listeners, and the sessions the backend minted. */
const snapshot = async (page: Page) => ({
  frames: await page.evaluate(() => [...document.querySelectorAll('iframe')].map((frame) => frame.src)),
  listeners: await page.evaluate(() => {
    const w = window as unknown as Win;
    return (w.app ?? w.PlatformEmbed).listenerCount();
  }),
  sessions,
});
const src = (publicId: string, session: number) => `${embed.origin}/embed/dashboard/${publicId}?session=minted-${session}`;

/** What the fake embed loaded with `session` has received from the host, once it is loaded. */
const received = async (page: Page, session: number): Promise<string[] | null> => {
  const frame: Frame | undefined = page.frames().find((f) => new RegExp(`[?&]session=minted-${session}(&|$)`).test(f.url()));
  if (!frame) return null;
  return frame.evaluate(() => JSON.parse(document.body.dataset.received ?? '[]') as string[]).catch(() => null);
};

// Short polling intervals: a frame loads in milliseconds here, and the default ones grow to a second.
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { intervals: [25, 50, 100] });

const ready = async (page: Page, driver: Driver) => {
  await poll(() => driver.status(page)).toBe('ready');
  // Time for a second, wasted, session call or a late frame to show up.
  await page.waitForTimeout(250);
};

for (const driver of DRIVERS) {
  test.describe(driver.name, () => {
    test('setColorScheme through the ref, then a new publicId: a new iframe, a fresh session, and the scheme replayed into it', async ({
      page,
    }) => {
      await driver.open(page, { publicId: 'p1' });
      await ready(page, driver);
      expect(await snapshot(page)).toEqual({ frames: [src('p1', 1)], listeners: 1, sessions: 1 });
      expect(await driver.isSameHandle(page)).toBe(true);

      await driver.setColorScheme(page, 'dark');
      await poll(() => received(page, 1)).toEqual(['set-color-scheme {"scheme":"dark"}']);

      await driver.change(page, { publicId: 'p2' });
      await poll(() => received(page, 2)).toEqual(['set-color-scheme {"scheme":"dark"}']);
      await ready(page, driver);
      expect(await snapshot(page)).toEqual({ frames: [src('p2', 2)], listeners: 1, sessions: 2 });
      // Once, not twice; and the old frame is gone.
      expect(await received(page, 2)).toEqual(['set-color-scheme {"scheme":"dark"}']);
      expect(await received(page, 1)).toBeNull();
      expect(await driver.isSameHandle(page)).toBe(true);
    });

    test('a colorScheme prop change is an action to the same iframe, with no new session', async ({ page }) => {
      await driver.open(page, { publicId: 'p1', colorScheme: 'light' });
      await ready(page, driver);
      await poll(() => received(page, 1)).toEqual(['set-color-scheme {"scheme":"light"}']);

      await driver.change(page, { colorScheme: 'dark' });
      await poll(() => received(page, 1)).toEqual(['set-color-scheme {"scheme":"light"}', 'set-color-scheme {"scheme":"dark"}']);
      await page.waitForTimeout(250);
      expect(await snapshot(page)).toEqual({ frames: [src('p1', 1)], listeners: 1, sessions: 1 });
      expect(await received(page, 1)).toEqual(['set-color-scheme {"scheme":"light"}', 'set-color-scheme {"scheme":"dark"}']);
      expect(await driver.status(page)).toBe('ready');
    });
  });
}

/** Unmounts the app and returns what is left one task later, and the state of the controller it had. */
const unmount = (page: Page) =>
  page.evaluate(async () => {
    const { app } = window as unknown as Win;
    const handle = app.handle()!;
    app.unmount();
    await new Promise((done) => setTimeout(done, 0));
    return {
      frames: document.querySelectorAll('iframe').length,
      listeners: app.listenerCount(),
      status: handle.getState().status,
      markup: document.getElementById('root')!.innerHTML,
    };
  });
const LEFT_NOTHING = { frames: 0, listeners: 0, status: 'destroyed', markup: '' };

for (const app of ['react19', 'react18'] as const) {
  const major = app === 'react19' ? '19' : '18';
  test.describe(`React ${major} in development, outside act()`, () => {
    test('StrictMode createRoot: one session and one iframe per mount; unmount leaves no iframe and no listener', async ({ page }) => {
      const react = framework(app);
      await react.open(page, { publicId: 'p1' });
      await ready(page, react);
      // The development build ran: StrictMode mounted, unmounted and mounted the effects again.
      expect(
        await page.evaluate(() => [(window as unknown as Win).app.version.split('.')[0], (window as unknown as Win).app.counters.effects]),
      ).toEqual([major, 2]);
      expect(await snapshot(page)).toEqual({ frames: [src('p1', 1)], listeners: 1, sessions: 1 });

      expect(await unmount(page)).toEqual(LEFT_NOTHING);
      await page.waitForTimeout(250);
      expect(sessions).toBe(1);

      // A second mount on the same page is a second mount: one more session, no more.
      await page.evaluate((baseUrl) => (window as unknown as Win).app.mount({ baseUrl, publicId: 'p3' }), embed.origin);
      await ready(page, react);
      expect(await snapshot(page)).toEqual({ frames: [src('p3', 2)], listeners: 1, sessions: 2 });
    });

    test('hydrateRoot of server-rendered HTML under StrictMode: one session, one iframe; unmount leaves nothing', async ({ page }) => {
      expect(fixtures.serverReactVersions[app].split('.')[0]).toBe(major);
      const response = await page.goto(`${host.origin}/ssr/${app}?publicId=p1`);
      // The server rendered the container, without an iframe or a session.
      expect(await response!.text()).toContain(
        '<div id="root"><div style="width:400px;height:300px" data-platform-embed="dashboard"></div></div>',
      );
      const react = framework(app);
      await ready(page, react);
      expect(
        await page.evaluate(() => [(window as unknown as Win).app.version.split('.')[0], (window as unknown as Win).app.counters.effects]),
      ).toEqual([major, 2]);
      expect(await snapshot(page)).toEqual({ frames: [src('p1', 1)], listeners: 1, sessions: 1 });
      expect(await unmount(page)).toEqual(LEFT_NOTHING);
      expect(sessions).toBe(1);
    });
  });
}

test.describe('Vue in development', () => {
  test('createSSRApp hydrating vue/server-renderer HTML: one session, one iframe; unmount leaves nothing', async ({ page }) => {
    const response = await page.goto(`${host.origin}/ssr/vue?publicId=p1`);
    expect(await response!.text()).toContain(
      '<div id="root"><div data-platform-embed="dashboard" style="width:400px;height:300px;"></div></div>',
    );
    const vue = framework('vue');
    await ready(page, vue);
    // Vue's development build ran (it registers its hot-reload runtime).
    expect(await page.evaluate(() => typeof (window as { __VUE_HMR_RUNTIME__?: unknown }).__VUE_HMR_RUNTIME__)).toBe('object');
    expect(await snapshot(page)).toEqual({ frames: [src('p1', 1)], listeners: 1, sessions: 1 });
    expect(await unmount(page)).toEqual(LEFT_NOTHING);
    await page.waitForTimeout(250);
    expect(sessions).toBe(1);
  });

  test('createApp: unmount leaves no iframe and no listener', async ({ page }) => {
    const vue = framework('vue');
    await vue.open(page, { publicId: 'p1' });
    await ready(page, vue);
    expect(await snapshot(page)).toEqual({ frames: [src('p1', 1)], listeners: 1, sessions: 1 });
    expect(await unmount(page)).toEqual(LEFT_NOTHING);
  });
});
