import { describe, expect, test, vi, type Mock } from 'vitest';
import type { DashboardEmbedOptions, EmbedHandle } from '../src/index';
import { configureParking } from '../src/index';
import { BASE, deliver, emit, envelope, iframes, mintSessions, payload, settle, withMoveBefore } from './helpers';

/*
 * One behaviour table, run against the core and every binding, so that they cannot drift
 * apart: for each option, what a change on a mounted, ready embed means (a reload with a fresh
 * session, an action to the same iframe, a swap, or a change of the current iframe), and that
 * the host state comes back after a reload.
 */

/** Dashboard options as the core takes them (bindings translate them to props or attributes). */
export type Options = Partial<DashboardEmbedOptions>;

/** How a binding is driven by the table. */
export interface Driver {
  /** Which bindings drive it; some rows need what a binding lacks (e.g. handler options on an element). */
  name: 'core' | 'react' | 'vue' | 'element' | 'angular';
  /** Mounts a dashboard with these options (always with `baseUrl`, `publicId` and a `session` function). */
  mount(options: Options): Promise<void>;
  /** Changes options as the host would (props, attributes): the binding's whole options become `options`. */
  update(options: Options): Promise<void>;
  /** The core handle (ref, template ref, element handle). */
  handle(): EmbedHandle<'dashboard'>;
  /** Unmounts and cleans up. */
  unmount(): Promise<void>;
}

type Effect =
  | { kind: 'reload' }
  | { kind: 'action'; sent: [string, unknown][] }
  | { kind: 'swap'; check: (before: Mock, after: Mock, iframe: HTMLIFrameElement) => void }
  | { kind: 'present'; check: (iframe: HTMLIFrameElement) => void };

interface Row {
  option: string;
  from?: Options;
  to: Options;
  effect: Effect;
  /** Bindings the row does not apply to. */
  skip?: Driver['name'][];
}

const reload: Effect = { kind: 'reload' };
const action = (...sent: [string, unknown][]): Effect => ({ kind: 'action', sent });

/** The table: one row per option (and per kind of change where an option has two). */
export const BEHAVIOUR: Row[] = [
  { option: 'publicId', to: { publicId: 'costs' }, effect: reload },
  { option: 'baseUrl', to: { baseUrl: 'https://other.example' }, effect: reload },
  { option: 'allowExport', to: { allowExport: true }, effect: reload },
  { option: 'showDashboardHeader', to: { showDashboardHeader: false }, effect: reload },
  { option: 'timeGrains', to: { timeGrains: { 'orders.created_at': 'month' } }, effect: reload },
  { option: 'fieldSwitches', to: { fieldSwitches: { 'orders.revenue': 'profit' } }, effect: reload },
  { option: 'sandbox', to: { sandbox: 'allow-scripts allow-same-origin' }, effect: reload },
  { option: 'allow', to: { allow: 'fullscreen' }, effect: reload },
  { option: 'referrerPolicy', to: { referrerPolicy: 'no-referrer' }, effect: reload },
  {
    option: 'filters (one removed)',
    from: { filters: { 'o.a': { value: 1 }, 'o.b': { value: 2 } } },
    to: { filters: { 'o.a': { value: 1 } } },
    effect: reload,
  },
  { option: 'colorScheme', to: { colorScheme: 'dark' }, effect: action(['set-color-scheme', { scheme: 'dark' }]) },
  { option: 'theme', to: { theme: { primaryColor: '#123' } }, effect: action(['set-theme', { primaryColor: '#123' }]) },
  { option: 'locale', from: { locale: 'en' }, to: { locale: 'es-MX' }, effect: action(['set-locale', { locale: 'es-MX' }]) },
  {
    option: 'filters (one changed, one added)',
    from: { filters: { 'o.a': { value: 1 } } },
    to: { filters: { 'o.a': { value: 2 }, 'o.b': { value: 3 } } },
    effect: action(
      ['set-filter', { filterUrlParameter: 'f_o.a={"value":2}' }],
      ['set-filter', { filterUrlParameter: 'f_o.b={"value":3}' }],
    ),
  },
  { option: 'path', to: { path: '/d/costs' }, effect: action(['navigate', { path: '/d/costs' }]) },
  {
    option: 'onDrilldown',
    to: {},
    skip: ['element'],
    effect: {
      kind: 'swap',
      check(before, after, iframe) {
        emit(iframe, 'drilldown', payload('drilldown'));
        expect(before).not.toHaveBeenCalled();
        expect(after).toHaveBeenCalledOnce();
      },
    },
  },
  {
    option: 'session (a new function)',
    to: {},
    effect: {
      kind: 'swap',
      check() {
        /* checked by the row's test: the next load calls the new function */
      },
    },
  },
  { option: 'title', to: { title: 'Sales' }, effect: { kind: 'present', check: (iframe) => expect(iframe.title).toBe('Sales') } },
  // The bindings' `class` is their container's.
  {
    option: 'className',
    to: { className: 'embed' },
    skip: ['react', 'vue', 'element', 'angular'],
    effect: { kind: 'present', check: (iframe) => expect(iframe.className).toBe('embed') },
  },
];

const actions = (iframe: HTMLIFrameElement) =>
  vi.spyOn(iframe.contentWindow!, 'postMessage') as unknown as Mock<(message: { type: string; payload: unknown }, origin: string) => void>;

/** Runs the behaviour table against a binding. */
export function behaviourTable(driver: Driver): void {
  describe(`behaviour table (${driver.name})`, () => {
    for (const row of BEHAVIOUR) {
      if (row.skip?.includes(driver.name)) continue;
      test(`${row.option}: ${row.effect.kind}`, async () => {
        const session = mintSessions();
        const before = vi.fn();
        const base: Options = { baseUrl: BASE, publicId: 'sales', session, onDrilldown: before, ...row.from };
        await driver.mount(base);
        const iframe = iframes()[0]!;
        emit(iframe, 'ready', payload('ready'));
        const post = actions(iframe);
        const after = vi.fn();
        const next = row.effect.kind == 'swap' ? mintSessions() : session;
        await driver.update({ ...base, session: next, onDrilldown: after, ...row.to });
        await settle();
        const sent = post.mock.calls.map(([m]) => [m.type.slice('platform:action:'.length), m.payload]);
        switch (row.effect.kind) {
          case 'reload':
            expect(iframes()).toHaveLength(1);
            expect(iframes()[0]).not.toBe(iframe);
            expect(session).toHaveBeenCalledTimes(2);
            expect(sent).toEqual([]);
            break;
          case 'action':
            expect(iframes()).toEqual([iframe]);
            expect(session).toHaveBeenCalledOnce();
            expect(sent).toEqual(row.effect.sent);
            break;
          case 'swap':
            expect(iframes()).toEqual([iframe]);
            expect(sent).toEqual([]);
            row.effect.check(before, after, iframe);
            driver.handle().reload();
            await settle();
            expect(session).toHaveBeenCalledOnce();
            expect(next).toHaveBeenCalledOnce();
            break;
          case 'present':
            expect(iframes()).toEqual([iframe]);
            expect(session).toHaveBeenCalledOnce();
            row.effect.check(iframe);
        }
        expect(driver.handle()).not.toBeNull();
        await driver.unmount();
        expect(iframes()).toEqual([]);
      });
    }

    test('the host state comes back after a reload: scheme and theme set through the handle, the path the embed reported', async () => {
      const session = mintSessions();
      const base: Options = { baseUrl: BASE, publicId: 'sales', session };
      await driver.mount(base);
      const first = iframes()[0]!;
      emit(first, 'ready', payload('ready'));
      driver.handle().setColorScheme('dark');
      driver.handle().setTheme({ font: 'Inter' });
      emit(first, 'navigate', { path: '/d/sales/q3' });
      await driver.update({ ...base, allowExport: true });
      await settle();
      const second = iframes()[0]!;
      expect(second).not.toBe(first);
      const post = actions(second);
      emit(second, 'ready', payload('ready'));
      expect(post.mock.calls.map(([m]) => [m.type, m.payload])).toEqual([
        ['platform:action:set-color-scheme', { scheme: 'dark' }],
        ['platform:action:set-theme', { font: 'Inter' }],
        ['platform:action:navigate', { path: '/d/sales/q3' }],
      ]);
      await driver.unmount();
    });

    // The core alone has no component whose end would park it.
    if (driver.name != 'core')
      test('keepAlive: unmounted and mounted again with its name, the same handle goes on (no new session where the frame could move)', async () => {
        const moveBefore = withMoveBefore();
        try {
          const session = mintSessions();
          const base: Options = { baseUrl: BASE, publicId: 'sales', session, keepAlive: `row-${driver.name}` };
          await driver.mount(base);
          const handle = driver.handle();
          const iframe = iframes()[0]!;
          const win = iframe.contentWindow;
          emit(iframe, 'ready', payload('ready'));
          await driver.unmount();
          expect(handle.getState().status).not.toBe('destroyed');
          // (jsdom gave the moved frame a new window; the one the SDK kept is spied on, not called.)
          const post = vi.spyOn(win!, 'postMessage').mockImplementation(() => {});
          await driver.mount({ ...base, colorScheme: 'dark' });
          expect(driver.handle()).toBe(handle);
          if (driver.name == 'element') {
            // An element is removed before it hears of it: its frame is gone, the handle and host state stay, a fresh session loads.
            expect(session).toHaveBeenCalledTimes(2);
          } else {
            // Parked before the framework removed the container: the same iframe, its document kept.
            expect(iframes()).toEqual([iframe]);
            expect(session).toHaveBeenCalledOnce();
            expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'dark' }]);
            await driver.update({ ...base, colorScheme: 'light' });
            expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'dark' }, { scheme: 'light' }]);
            deliver(envelope('navigate', { path: '/x' }), win);
          }
        } finally {
          await driver.unmount();
          configureParking({ max: 0 });
          configureParking({ max: 3 });
          moveBefore.restore();
        }
      });
  });
}
