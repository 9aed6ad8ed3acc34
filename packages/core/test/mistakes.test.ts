import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { EmbedError, embedApp, embedDashboard, filterUrlParameter, listenerCount, type EmbedHandle } from '../src/index';
import { BASE, READY, deliver, envelope, flush, mintSessions, thrown } from './helpers';
import { MISTAKES } from './mistakeTable';

/*
 * The mistakes a new user makes, each answered where it is made: the cause and the fix in
 * development, the code and the option in production. Invalid numbers and missing ids are
 * refused in every build (a `readyTimeout` of NaN would silently turn the timeout off; a missing
 * `publicId` would load `/embed/dashboard/undefined`).
 */

let handles: EmbedHandle[] = [];
const dashboard = (options: Record<string, unknown>) => {
  const h = embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'p', session: mintSessions(), ...options } as never);
  handles.push(h);
  return h;
};

beforeEach(() => {
  document.body.innerHTML = '<div id="c"></div>';
});
afterEach(() => {
  for (const h of handles) h.destroy();
  handles = [];
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  globalThis.__DEV__ = true;
  expect(listenerCount()).toBe(0);
});

describe.each([
  ['development', true],
  ['production', false],
])('invalid numbers and missing ids are refused in every build (%s)', (_, development) => {
  beforeEach(() => {
    globalThis.__DEV__ = development;
  });
  test.each<[string, Record<string, unknown>, string]>([
    ['readyTimeout "abc"', { readyTimeout: 'abc' }, '"readyTimeout" must be number>=0 when present (got "abc")'],
    ['readyTimeout NaN', { readyTimeout: NaN }, '"readyTimeout" must be number>=0'],
    ['readyTimeout -1', { readyTimeout: -1 }, '"readyTimeout" must be number>=0 when present (got -1)'],
    ['sessionTimeout "15s"', { sessionTimeout: '15s' }, '"sessionTimeout" must be number>=0'],
    ['retry "lots"', { retry: 'lots' }, '"retry" must be integer>=0|boolean when present (got "lots")'],
    ['retry 1.5', { retry: 1.5 }, '"retry" must be integer>=0|boolean'],
    ['no publicId', { publicId: undefined }, '"publicId" must be a public id such as "sales-overview" (got undefined)'],
    ['publicId 42', { publicId: 42 }, '"publicId" must be a public id such as "sales-overview" (got 42)'],
  ])('%s', (_, options, message) => {
    const e = thrown(() => dashboard(options));
    expect(e.code).toBe('invalid-option');
    expect(e.message).toContain(message);
    expect(document.querySelector('iframe')).toBeNull();
  });

  test('an app without deploymentId', () => {
    const e = thrown(() => embedApp({ container: '#c', baseUrl: BASE, session: 's' } as never));
    expect(e.message).toContain('"deploymentId" must be positive integer (got undefined)');
  });

  test('an update with an invalid number is refused and changes nothing', async () => {
    const h = dashboard({ readyTimeout: 100 });
    expect(() => h.update({ readyTimeout: 'soon' as never })).toThrow(/readyTimeout/);
    await flush();
    expect(h.getState().status).toBe('loading');
  });
});

describe('unknown options (development): a warning with a did-you-mean, once per name', () => {
  test('a typo names the option it resembles', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    dashboard({ allowExprt: true });
    expect(warn).toHaveBeenCalledWith('[platform-embed] unknown option "allowExprt" is ignored: did you mean "allowExport"?');
    dashboard({ allowExprt: true, ReadyTimeout: 5 });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenLastCalledWith('[platform-embed] unknown option "ReadyTimeout" is ignored: did you mean "readyTimeout"?');
  });

  test('a name like nothing known is still named; handlers and kept state are known', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    dashboard({ wobble: 1, onDrilldown: () => {}, onEvent: () => {}, colorScheme: 'dark', filters: {}, path: '/x' });
    expect(warn.mock.calls).toEqual([['[platform-embed] unknown option "wobble" is ignored']]);
  });

  test('production says nothing', () => {
    globalThis.__DEV__ = false;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    dashboard({ colourScheme: 'dark' });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('messages that name the mistake', () => {
  test('container missing: required, and what to pass', () => {
    const e = thrown(() => dashboard({ container: undefined }));
    expect(e.code).toBe('no-container');
    expect(e.message).toContain('container is required: pass the element to mount into, or a CSS selector for it');
  });

  test('container an invalid selector: not a crash inside querySelector', () => {
    const e = thrown(() => dashboard({ container: '#1bad[' }));
    expect(e.code).toBe('no-container');
    expect(e.message).toContain('container "#1bad[" matches no element');
  });

  test('setFilter with a ready-made view.dimension and a value: says it takes three arguments', async () => {
    const h = dashboard({});
    const e = thrown(() => (h.setFilter as (a: string, b: unknown) => void)('orders.status', { value: 'open' }));
    expect(e.message).toContain(
      'filterUrlParameter(view, dimension, value) takes three arguments, e.g. ("orders", "status", { value: "open" }); got ("orders.status", object)',
    );
    expect(() => filterUrlParameter('orders', 'status', { value: 'open' })).not.toThrow();
  });

  test('a session function returning { id }: names the expected { sessionId }', async () => {
    const h = dashboard({ session: () => ({ id: 'x' }) });
    await flush();
    expect(h.error?.message).toMatch(/returned an object without "sessionId" \(keys: id\): return generate-session's \{ sessionId \} body/);
  });
});

describe('a host page with an opaque origin is refused at once', () => {
  test.each([
    [
      'development',
      true,
      /origin is opaque \("null": a sandboxed iframe without allow-same-origin, or a file:\/\/ page\).*serve the page from https/,
    ],
    ['production', false, /origin null/],
  ])('%s: the error state at once, no session minted, no frame', async (_, development, message) => {
    globalThis.__DEV__ = development;
    vi.stubGlobal('origin', 'null');
    const session = mintSessions();
    const h = dashboard({ session });
    await flush();
    expect(h.getState().status).toBe('error');
    expect(h.error).toBeInstanceOf(EmbedError);
    expect(h.error!.code).toBe('opaque-origin');
    expect(h.error!.message).toMatch(message);
    expect(session).not.toHaveBeenCalled();
    expect(h.iframe).toBeNull();
  });
});

describe('the declarative path is the place the host asks for', () => {
  test('the same path again sends nothing; navigate() always navigates', async () => {
    const h = dashboard({ path: '/revenue' });
    await flush();
    const post = vi.spyOn(h.iframe!.contentWindow!, 'postMessage');
    deliver(envelope('ready', READY), h.iframe!.contentWindow);
    deliver(envelope('navigate', { path: '/elsewhere' }), h.iframe!.contentWindow);
    post.mockClear();
    h.update({ path: '/revenue' });
    expect(post).not.toHaveBeenCalled();
    h.navigate('/revenue');
    expect(post).toHaveBeenCalledTimes(1);
  });
});

describe('embed*() and update() keep throwing, in the words of the options (the bindings catch what the table lists)', () => {
  test.each(MISTAKES)('$what', (row) => {
    const e = thrown(() => dashboard(row.options));
    expect(e.code).toBe('invalid-option');
    expect(e.message).toContain(row.prop);
    const h = dashboard({});
    const update = thrown(() => h.update(row.options));
    expect(update.code).toBe('invalid-option');
    expect(update.message).toContain(row.prop);
  });

  test.each([
    ['a locale that is empty', { locale: '' }, '"locale" must be non-empty string (got "")'],
    ['a path that is no string', { path: 5 }, '"path" must be string (got 5)'],
    ['a theme that is no object', { theme: 'dark' }, '"theme" must be an object'],
    ['a theme that cannot be cloned', { theme: { font: 'Inter', at: () => 0 } }, '"theme" not cloneable'],
  ])('kept state, in production too, names the option, not the action: %s', (_, options, message) => {
    globalThis.__DEV__ = false;
    const e = thrown(() => dashboard(options));
    expect(e.code).toBe('invalid-option');
    expect(e.message).toBe(`[platform-embed] ${message}`);
  });

  test('an action sent with an invalid payload is still invalid-action, named by the action', () => {
    const h = dashboard({});
    const e = thrown(() => h.setColorScheme('purple' as 'dark'));
    expect(e.code).toBe('invalid-action');
    expect(e.message).toBe('[platform-embed] action "set-color-scheme": "scheme" must be light|dark|auto (got "purple")');
  });
});

describe('an error that puts an embed in `error` is written to the console once, unless the host hears it', () => {
  const failing = { session: () => Promise.reject(new Error('backend down')), retry: false };

  test.each([
    ['development', true, /session function failed: Error: backend down/],
    ['production', false, /session/],
  ])('%s: no error handler, one console line with the error', async (_, development, message) => {
    globalThis.__DEV__ = development;
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = dashboard(failing);
    await vi.waitFor(() => expect(h.getState().status).toBe('error'));
    expect(error).toHaveBeenCalledExactlyOnceWith(h.error);
    expect(h.error!.message).toMatch(message);
  });

  test('onError, or on("error"): the SDK error event instead (name EmbedError, context its code, fatal); no console line', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const h = dashboard({ ...failing, onError });
    const listener = vi.fn();
    h.on('error', listener);
    await vi.waitFor(() => expect(h.getState().status).toBe('error'));
    const event = { message: h.error!.message, name: 'EmbedError', context: 'session', fatal: true };
    expect(onError).toHaveBeenCalledExactlyOnceWith(event, expect.objectContaining({ type: 'platform:event:error', payload: event }));
    expect(listener).toHaveBeenCalledExactlyOnceWith(event, expect.anything());
    expect(error).not.toHaveBeenCalled();
  });

  test("the embed's own fatal error event is the failure: its handlers hear it once, not again from the SDK", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const h = dashboard({ onError, retry: false });
    await flush();
    deliver(envelope('error', { message: 'session expired', fatal: true }), h.iframe!.contentWindow);
    expect(h.getState().status).toBe('error');
    expect(onError).toHaveBeenCalledExactlyOnceWith({ message: 'session expired', fatal: true }, expect.anything());
    expect(error).not.toHaveBeenCalled();
  });
});
