import { afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import type { KeptStateSpec } from '../src/keptState';
import { BASE, READY, deliver, envelope, flush, mintSessions, spyPost } from './helpers';

/*
 * Adding an option or a kept-state action is one entry in the table of its kind, plus, where
 * production reads it, the entry's production part in the lean table beside it (which the compiler
 * checks against the entry, and the last test here at run time). Here each table gets one fixture
 * entry (the platform's catalog a `set-density` action, the kept state `density`, the SDK's own
 * options a `watermark` flag), and every consumer takes it without another change: the checks,
 * what a change means, the replay after a reload, the action helpers, the custom element's
 * attributes and Vue's props.
 */

type Core = typeof import('../src/index');
let core: Core;
const handles: { destroy(): void }[] = [];

beforeAll(async () => {
  vi.resetModules();
  vi.doMock('../src/catalog', async (original) => {
    const catalog = await original<typeof import('../src/catalog')>();
    return { ...catalog, ACTION_SCHEMAS: { ...catalog.ACTION_SCHEMAS, 'set-density': { density: ['compact', 'comfortable'] } } };
  });
  vi.doMock('../src/keptState', async (original) => {
    const kept = await original<typeof import('../src/keptState')>();
    return {
      ...kept,
      KEPT_STATE: { ...kept.KEPT_STATE, density: { action: 'set-density', field: 'density', attribute: 'string' } },
      KEPT: { ...kept.KEPT, density: { action: 'set-density', field: 'density' } },
    };
  });
  vi.doMock('../src/embedOptions', async (original) => {
    const own = await original<typeof import('../src/embedOptions')>();
    return {
      ...own,
      EMBED_OPTIONS: { ...own.EMBED_OPTIONS, watermark: { check: 'boolean?', change: own.RELOAD, attribute: 'flag' } },
      OPTION_CHANGES: { ...own.OPTION_CHANGES, watermark: own.RELOAD },
    };
  });
  core = await import('../src/index');
});

afterEach(async () => {
  handles.splice(0).forEach((h) => h.destroy());
  // (An element left in the page would let its embed go after jsdom is gone.)
  document.body.innerHTML = '';
  await flush();
  vi.restoreAllMocks();
});

const mount = (options: Record<string, unknown> = {}) => {
  document.body.innerHTML = '<div id="c"></div>';
  const session = mintSessions();
  const h = core.embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'p', session, ...options } as never);
  handles.push(h);
  return Object.assign(h, { minted: session });
};
const ready = async (h: { iframe: HTMLIFrameElement | null }) => {
  await flush();
  const post = spyPost(h.iframe!.contentWindow!);
  deliver(envelope('ready', READY), h.iframe!.contentWindow);
  return post;
};
const actions = (post: ReturnType<typeof spyPost>) =>
  post.mock.calls.map(([m]) => [(m as { type: string }).type, (m as { payload: unknown }).payload]);

describe('a kept-state action: one entry in KEPT_STATE, its action and field in KEPT (and the action in the catalog)', () => {
  test('an option change is the action on the same iframe, brought back after a reload', async () => {
    const h = mount({ density: 'compact' });
    let post = await ready(h);
    expect(actions(post)).toEqual([['platform:action:set-density', { density: 'compact' }]]);
    const iframe = h.iframe;
    h.update({ density: 'comfortable' } as never);
    expect(h.iframe).toBe(iframe);
    expect(actions(post).at(-1)).toEqual(['platform:action:set-density', { density: 'comfortable' }]);
    h.reload();
    post = await ready(h);
    expect(actions(post)).toEqual([['platform:action:set-density', { density: 'comfortable' }]]);
  });

  test('the derived helper and send() keep it too; a value the catalog refuses is refused', async () => {
    const h = mount();
    await ready(h);
    (h as unknown as { setDensity(d: string): void }).setDensity('compact');
    h.reload();
    const post = await ready(h);
    expect(actions(post)).toEqual([['platform:action:set-density', { density: 'compact' }]]);
    expect(() => h.update({ density: 'huge' } as never)).toThrow(/"density" must be compact\|comfortable/);
  });

  test('no unknown-option warning for it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    mount({ density: 'compact' });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe("one of the SDK's own options: one entry in EMBED_OPTIONS, its change in OPTION_CHANGES", () => {
  test('checked by its rule, and its change means what the entry says (a reload)', async () => {
    expect(() => mount({ watermark: 'yes' })).toThrow(/"watermark" must be boolean when present \(got "yes"\)/);
    const h = mount({ watermark: false });
    await ready(h);
    const iframe = h.iframe;
    h.update({ watermark: true } as never);
    await flush();
    expect(h.iframe).not.toBe(iframe);
    expect(h.minted).toHaveBeenCalledTimes(2);
  });

  test('the custom element reads its attribute as the entry says (a flag)', async () => {
    const { PlatformDashboardElement } = await import('@platform-embed/element');
    expect(PlatformDashboardElement.observedAttributes).toEqual(expect.arrayContaining(['watermark', 'density']));
    document.body.innerHTML = `<platform-dashboard base-url="${BASE}" public-id="p" session="${core.SURFACES[0]}-w1" watermark="maybe"></platform-dashboard>`;
    const el = document.body.firstElementChild as InstanceType<typeof PlatformDashboardElement>;
    await flush();
    expect(el.state.error?.message).toContain('attribute watermark must be "true", "false" or empty (got "maybe")');
    // (Removed before the file's DOM is torn down, which would disconnect it then.)
    el.remove();
    await flush();
  });

  test("Vue declares it as a prop, cast as a boolean as the entry's attribute kind says", async () => {
    const { OPTIONS } = (await import('../../vue/src/PlatformEmbed')) as { OPTIONS: string[] };
    expect(OPTIONS).toContain('watermark');
    const { PlatformDashboard } = await import('@platform-embed/vue');
    const props = (PlatformDashboard as unknown as { props: Record<string, { type?: unknown }> }).props;
    expect(props.watermark).toEqual({ type: Boolean, default: undefined });
    expect(props.density).toBeNull(); // the kept option is a prop too, passed as it is
  });
});

describe('the production tables are the production part of the tables, entry for entry', () => {
  test('LAUNCH_URL: each launch option as the URL writes it (a flag its default, a keyed option its prefix)', async () => {
    const { LAUNCH_OPTIONS, LAUNCH_URL } = await vi.importActual<typeof import('../src/launchOptions')>('../src/launchOptions');
    const parts = Object.entries(LAUNCH_OPTIONS).map(([name, spec]) => [
      name,
      'prefix' in spec ? spec.prefix : spec.kind == 'boolean' ? spec.default : undefined,
    ]);
    expect(Object.entries(LAUNCH_URL)).toEqual(parts);
  });

  test("KEPT: each kept option's action and field", async () => {
    const { KEPT_STATE, KEPT } = await vi.importActual<typeof import('../src/keptState')>('../src/keptState');
    const parts = Object.entries(KEPT_STATE as Record<string, KeptStateSpec>).map(([name, { attribute: _, ...spec }]) => [name, spec]);
    expect(Object.entries(KEPT)).toEqual(parts);
  });

  test('OPTION_CHANGES: the change of each option that declares one', async () => {
    const { EMBED_OPTIONS, OPTION_CHANGES } = await vi.importActual<typeof import('../src/embedOptions')>('../src/embedOptions');
    const parts = Object.entries(EMBED_OPTIONS).flatMap(([name, spec]) => ('change' in spec ? [[name, spec.change]] : []));
    expect(Object.entries(OPTION_CHANGES)).toEqual(parts);
  });
});
