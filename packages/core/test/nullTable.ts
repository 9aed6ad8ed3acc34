import { afterEach, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest';
import type { Options } from './behaviour';
import type { MistakeDriver } from './mistakeTable';
import { BASE, emit, iframes, mintSessions, payload, settle } from './helpers';

/*
 * `null` on a prop, driven through the framework bindings (React, Vue, Angular; the element's
 * attributes are absent or strings), on mount and on update, in both builds. `null` is what
 * Angular's `| async` gives before its first value, and what a prop read from an API often is:
 * on an optional option it is "not set", exactly as `undefined`; on a required id (`baseUrl`,
 * `publicId`) it is "not known yet": the embed waits, idle, with nothing minted, no error and no
 * console line, and loads when the id comes.
 */

/** Optional options, each `null`: not set. */
export const NULLS: { what: string; options: Options }[] = [
  { what: 'colorScheme', options: { colorScheme: null as never } },
  { what: 'theme', options: { theme: null as never } },
  { what: 'filters', options: { filters: null as never } },
  { what: 'title', options: { title: null as never } },
  { what: 'readyTimeout', options: { readyTimeout: null as never } },
  { what: 'retry', options: { retry: null as never } },
  { what: 'sandbox', options: { sandbox: null as never } },
  { what: 'allowExport', options: { allowExport: null as never } },
  { what: 'keepAlive', options: { keepAlive: null as never } },
  {
    what: 'every optional option at once',
    options: Object.assign(
      {},
      ...['colorScheme', 'theme', 'filters', 'title', 'readyTimeout', 'retry', 'sandbox', 'allowExport', 'keepAlive'].map((name) => ({
        [name]: null,
      })),
    ),
  },
];

/** Runs the `null` table through a binding. */
export function nullTable(driver: MistakeDriver): void {
  let consoleError: MockInstance<(...args: unknown[]) => void>;
  // The console lines of the SDK (React may write lines of its own).
  const reported = () => consoleError.mock.calls.filter(([error]) => (error as Error)?.name == 'EmbedError');

  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(async () => {
    await driver.unmount();
    await settle();
    vi.restoreAllMocks();
    globalThis.__DEV__ = true;
  });

  describe.each([
    ['development', false],
    ['production', true],
  ] as const)(`null on a prop (${driver.name}, %s)`, (_, production) => {
    beforeEach(() => {
      globalThis.__DEV__ = !production;
    });

    test.each(NULLS)('on mount, $what null: not set, the embed loads', async ({ options }) => {
      await driver.render({ baseUrl: BASE, publicId: 'sales', session: mintSessions(), ...options });
      expect(driver.state().status).toBe('loading');
      expect(iframes()).toHaveLength(1);
      expect(driver.errorUi()).toBeNull();
      expect(reported()).toEqual([]);
    });

    test.each(NULLS)('on update, $what from a value to null: removed, as undefined, nothing refused', async ({ options }) => {
      const valid: Options = { baseUrl: BASE, publicId: 'sales', session: mintSessions() };
      const values: Options = {
        colorScheme: 'dark',
        theme: { primaryColor: '#123456' },
        filters: { 'orders.status': { value: 'open' } },
        title: 'Sales',
        readyTimeout: 60_000,
        retry: 2,
        sandbox: 'allow-scripts allow-same-origin',
        allowExport: true,
        keepAlive: 'sales',
      };
      const set = Object.fromEntries(Object.keys(options).map((name) => [name, values[name as keyof Options]]));
      await driver.render({ ...valid, ...set });
      emit(iframes()[0]!, 'ready', payload('ready'));
      await settle();
      await driver.update({ ...valid, ...options });
      // (A removed launch option or title reloads, as without it; a removed action option does not.)
      await vi.waitFor(() => expect(['ready', 'loading']).toContain(driver.state().status));
      expect(iframes()).toHaveLength(1);
      expect(driver.errorUi()).toBeNull();
      expect(reported()).toEqual([]);
    });

    test('a required id null on mount: idle, nothing minted, no error; it loads when the id comes', async () => {
      const session = mintSessions();
      const valid: Options = { baseUrl: BASE, publicId: 'sales', session };
      await driver.render({ ...valid, publicId: null as never });
      expect(driver.state().status).toBe('idle');
      expect(iframes()).toEqual([]);
      expect(driver.errorUi()).toBeNull();
      expect(reported()).toEqual([]);
      // (What an `| async` gives when its value comes.)
      await driver.update(valid);
      expect(driver.state().status).toBe('loading');
      expect(iframes()).toHaveLength(1);
      expect(iframes()[0]!.src).toContain('/embed/dashboard/sales');
      await vi.waitFor(() => expect(session).toHaveBeenCalledOnce());
      expect(reported()).toEqual([]);
    });

    test('a base URL and an id both null, then both set: one embed, one session', async () => {
      const session = mintSessions();
      await driver.render({ baseUrl: null as never, publicId: null as never, session, colorScheme: null as never });
      expect(driver.state().status).toBe('idle');
      await driver.update({ baseUrl: BASE, publicId: null as never, session });
      expect(driver.state().status).toBe('idle');
      expect(iframes()).toEqual([]);
      await driver.update({ baseUrl: BASE, publicId: 'sales', session, colorScheme: 'dark' });
      expect(iframes()).toHaveLength(1);
      await settle();
      expect(session).toHaveBeenCalledOnce();
      expect(reported()).toEqual([]);
    });

    test('a required id that becomes null: the embed goes (nothing of it stays), idle until the next id', async () => {
      const session = mintSessions();
      const valid: Options = { baseUrl: BASE, publicId: 'sales', session };
      await driver.render(valid);
      emit(iframes()[0]!, 'ready', payload('ready'));
      await settle();
      await driver.update({ ...valid, publicId: null as never });
      expect(driver.state().status).toBe('idle');
      expect(iframes()).toEqual([]);
      expect(driver.errorUi()).toBeNull();
      await driver.update({ ...valid, publicId: 'marketing' });
      expect(iframes()).toHaveLength(1);
      expect(iframes()[0]!.src).toContain('/embed/dashboard/marketing');
      expect(reported()).toEqual([]);
    });
  });
}
