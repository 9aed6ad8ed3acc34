import { afterEach, beforeEach, describe, expect, test, vi, type MockInstance } from 'vitest';
import type { EmbedState } from '../src/index';
import type { Options } from './behaviour';
import { BASE, emit, iframes, mintSessions, payload, settle } from './helpers';

/*
 * The mistakes a host makes in an embed's props or attributes, driven through every binding
 * (React, Vue, Angular, the element), on mount and on update. A mistake costs the embed, never
 * the host's app: nothing is thrown into the framework, the app around it still renders and
 * works. On mount the embed is in `error` (`invalid-option`) and the binding's error UI says
 * why, in the words the host wrote (the prop, or the element's attribute); on update the embed
 * goes on with its last valid options. Either is written once to the console, unless the host
 * hears the binding's error event (then it gets it there instead).
 */

/** How a binding is driven by the table: a host app around one dashboard. */
export interface MistakeDriver {
  name: 'react' | 'vue' | 'angular' | 'element';
  /**
   * Renders the host's app: a counter button of its own, and a dashboard with `options` and the
   * binding's error UI (`errorFallback`, the `#error` slot, the error template, the error slot)
   * showing the error's message. With `onError` the host hears errors the binding's way (the
   * `onError` prop, an `@error` listener, an `(error)` binding, a `platform-error` listener).
   */
  render(options: Options, onError?: (payload: Record<string, unknown>) => void): Promise<void>;
  /** Renders the app again with these dashboard options (props, inputs, attributes). */
  update(options: Options): Promise<void>;
  /** Clicks the host app's counter button; returns the button's text after the app rendered it. */
  click(): Promise<string>;
  /** The dashboard's state (ref, template ref, component, element). */
  state(): EmbedState;
  /** The text of the binding's error UI, `null` when it is not shown. */
  errorUi(): string | null;
  /** Removes the app. */
  unmount(): Promise<void>;
}

/** One mistake: options that cannot be used, and what each binding must say about it. */
export interface Mistake {
  what: string;
  /** Merged over valid dashboard options (an option set to `undefined` is left out). */
  options: Options;
  /** The message, in development, where the host wrote props (React, Vue, Angular) and in the core. */
  prop: string;
  /** The message of the element, where the host wrote attributes. */
  attribute: string;
  /** The messages of the production build. */
  production?: { prop: string; attribute: string };
  /** Bindings where the value is no mistake (Angular reads a flag input's string as its attribute). */
  skip?: MistakeDriver['name'][];
}

/** The table. */
export const MISTAKES: Mistake[] = [
  {
    what: 'a color scheme that is none',
    options: { colorScheme: 'purple' as 'dark' },
    prop: '"colorScheme" must be light|dark|auto (got "purple")',
    attribute: '"color-scheme" must be light|dark|auto (got "purple")',
    production: {
      prop: '"colorScheme" must be light|dark|auto (got "purple")',
      attribute: '"color-scheme" must be light|dark|auto (got "purple")',
    },
  },
  {
    what: 'a theme field of the wrong type',
    options: { theme: { primaryColor: 5 as unknown as string } },
    prop: '"theme.primaryColor" must be string when present (got 5)',
    attribute: '"theme.primaryColor" must be string when present (got 5)',
  },
  {
    what: 'a base URL that is no tenant',
    options: { baseUrl: 'ftp://tenant.example' },
    prop: `baseUrl must be your tenant's https:// address`,
    attribute: `base-url must be your tenant's https:// address`,
    production: { prop: '[platform-embed] baseUrl', attribute: '[platform-embed] base-url' },
  },
  {
    what: 'no public id',
    options: { publicId: undefined },
    prop: '"publicId" must be a public id such as "sales-overview" (got undefined)',
    attribute: '<platform-dashboard> needs a public-id attribute',
    production: {
      prop: '"publicId" must be a public id such as "sales-overview" (got undefined)',
      attribute: '[platform-embed] public-id',
    },
  },
  {
    what: 'a negative ready timeout',
    options: { readyTimeout: -1 },
    prop: '"readyTimeout" must be number>=0 when present (got -1)',
    attribute: 'attribute ready-timeout must be a number of milliseconds (got "-1")',
  },
  {
    what: 'a flag given as a word',
    options: { allowExport: 'yes' as unknown as boolean },
    prop: '"allowExport" must be boolean when present (got "yes")',
    attribute: 'attribute allow-export must be "true", "false" or empty (got "yes")',
    skip: ['angular'],
  },
  {
    what: 'a filter keyed without its view',
    options: { filters: { status: { value: 'open' } } as never },
    prop: 'filters: "status" must be <semantic_view>.<dimension>, e.g. "orders.status"',
    attribute: 'filters: "status" must be <semantic_view>.<dimension>, e.g. "orders.status"',
  },
  {
    what: 'a sandbox that would break the embed',
    options: { sandbox: 'allow-forms' },
    prop: '"sandbox" must be string with allow-scripts and allow-same-origin when present (got "allow-forms")',
    attribute: '"sandbox" must be string with allow-scripts and allow-same-origin when present (got "allow-forms")',
    // (Was, in production: loading until readyTimeout, a session minted by each retry, then "sent no ready".)
    production: {
      prop: '"sandbox" must be string with allow-scripts and allow-same-origin when present (got "allow-forms")',
      attribute: '"sandbox" must be string with allow-scripts and allow-same-origin when present (got "allow-forms")',
    },
  },
];

/** Valid dashboard options, with `mistake` over them (its `undefined`s leave an option out). */
const withMistake = (valid: Options, mistake: Options = {}): Options =>
  Object.fromEntries(Object.entries({ ...valid, ...mistake }).filter(([, value]) => value !== undefined));

/** Runs the mistake table through a binding, in development and (for the rows that say) production. */
export function mistakeTable(driver: MistakeDriver): void {
  let consoleError: MockInstance<(...args: unknown[]) => void>;
  let warn: MockInstance<(...args: unknown[]) => void>;
  const words = (row: Mistake, production = false) => {
    const messages = production ? row.production! : row;
    return driver.name == 'element' ? messages.attribute : messages.prop;
  };
  // The console lines of the SDK's errors (React may write lines of its own).
  const reported = () => consoleError.mock.calls.filter(([error]) => (error as Error)?.name == 'EmbedError');

  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
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
  ] as const)(`a mistake costs the embed, never the page (${driver.name}, %s)`, (_, production) => {
    const rows = MISTAKES.filter((row) => !row.skip?.includes(driver.name) && (!production || row.production));
    beforeEach(() => {
      globalThis.__DEV__ = !production;
    });

    test.each(rows)('on mount, $what: the error state and UI, one console line, the app goes on; fixed, it mounts', async (row) => {
      const valid: Options = { baseUrl: BASE, publicId: 'sales', session: mintSessions() };
      await driver.render(withMistake(valid, row.options));
      expect(driver.state().status).toBe('error');
      expect(driver.state().error?.code).toBe('invalid-option');
      expect(driver.state().error?.message).toContain(words(row, production));
      expect(driver.errorUi()).toContain(words(row, production));
      // One live region per embed: the binding's error UI is the alert.
      const alerts = document.querySelectorAll('[role=alert]');
      expect(alerts).toHaveLength(1);
      expect(alerts[0]!.textContent).toContain(words(row, production));
      expect(iframes()).toEqual([]);
      // The host's app renders and works; rendering it again reports nothing twice.
      expect(await driver.click()).toBe('clicked 1');
      expect(await driver.click()).toBe('clicked 2');
      expect(reported()).toHaveLength(1);
      expect((reported()[0]![0] as Error).message).toContain(words(row, production));
      // Fixed: the embed mounts.
      await driver.update(valid);
      expect(iframes()).toHaveLength(1);
      expect(driver.state().status).toBe('loading');
      expect(driver.errorUi()).toBeNull();
      expect(reported()).toHaveLength(1);
    });

    test.each(rows)('on update, $what: refused, the embed goes on as it was; one console line', async (row) => {
      const valid: Options = { baseUrl: BASE, publicId: 'sales', session: mintSessions() };
      await driver.render(valid);
      const [iframe] = iframes();
      emit(iframe!, 'ready', payload('ready'));
      await settle();
      await driver.update(withMistake(valid, row.options));
      expect(driver.state().status).toBe('ready');
      expect(iframes()).toEqual([iframe]);
      expect(driver.errorUi()).toBeNull();
      expect(await driver.click()).toBe('clicked 1');
      expect(reported()).toHaveLength(1);
      expect((reported()[0]![0] as Error).message).toContain(words(row, production));
      // The same mistake again (the app renders again): not reported again.
      await driver.update(withMistake({ ...valid, title: 'Sales' }, row.options));
      expect(reported()).toHaveLength(1);
      expect(driver.state().status).toBe('ready');
    });
  });

  describe(`the host hears the SDK's errors: no console line (${driver.name})`, () => {
    const row = MISTAKES[0]!;
    test('on mount: the error event, fatal', async () => {
      const heard = vi.fn();
      await driver.render(withMistake({ baseUrl: BASE, publicId: 'sales', session: mintSessions() }, row.options), heard);
      expect(driver.state().status).toBe('error');
      expect(await driver.click()).toBe('clicked 1');
      expect(heard).toHaveBeenCalledOnce();
      expect(heard.mock.calls[0]![0]).toEqual({
        message: expect.stringContaining(words(row)),
        name: 'EmbedError',
        context: 'invalid-option',
        fatal: true,
      });
      expect(reported()).toEqual([]);
    });

    test('on update: the error event, not fatal', async () => {
      const heard = vi.fn();
      const valid: Options = { baseUrl: BASE, publicId: 'sales', session: mintSessions() };
      await driver.render(valid, heard);
      await driver.update(withMistake(valid, row.options));
      expect(driver.state().status).toBe('loading');
      expect(heard).toHaveBeenCalledOnce();
      expect(heard.mock.calls[0]![0]).toMatchObject({ name: 'EmbedError', context: 'invalid-option', fatal: false });
      expect(reported()).toEqual([]);
    });

    test('a load that fails for good: the error event, fatal, in the code of the cause', async () => {
      const heard = vi.fn();
      await driver.render(
        { baseUrl: BASE, publicId: 'sales', session: () => Promise.reject(new Error('backend down')), retry: false },
        heard,
      );
      await vi.waitFor(() => expect(driver.state().status).toBe('error'));
      expect(heard).toHaveBeenCalledOnce();
      expect(heard.mock.calls[0]![0]).toMatchObject({ name: 'EmbedError', context: 'session', fatal: true });
      expect(reported()).toEqual([]);
      expect(warn).not.toHaveBeenCalled();
    });
  });
}
