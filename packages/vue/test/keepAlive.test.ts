import {
  KeepAlive,
  defineComponent,
  getCurrentInstance,
  h,
  nextTick,
  onMounted,
  ref,
  type Component,
  type Ref,
  type SetupContext,
} from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, expect, test, vi } from 'vitest';
import { configureParking, listenerCount, parkedCount, type EmbedHandle } from '@platform-embed/core';
import { PlatformDashboard } from '../src/index';
import { BASE, emit, iframes, mintSessions, payload, settle, withMoveBefore } from '../../core/test/helpers';

/*
 * Vue's <KeepAlive> deactivates a component by moving its DOM into a detached container, which
 * unloads any iframe inside, before any of the component's hooks runs. The component moves the
 * embed aside first (the <KeepAlive>'s deactivate, wrapped), wherever it sits in the deactivated
 * page, and back when activated: with moveBefore the iframe keeps its document; without it the
 * same handle loads again with a fresh session, never the used one.
 */

let restore: (() => void) | undefined;
// Every app mounted: a test that failed before its unmount leaves nothing to the next one.
const mounted: VueWrapper[] = [];
afterEach(async () => {
  for (const wrapper of mounted.splice(0)) if (wrapper.vm.$.isMounted && !wrapper.vm.$.isUnmounted) wrapper.unmount();
  restore?.();
  restore = undefined;
  // (What a failed test left parked goes, so that the next test starts with an empty lot.)
  configureParking({ max: 0 });
  configureParking({ max: 3 });
  document.body.innerHTML = '';
  await settle();
  expect(listenerCount()).toBe(0);
});

const Other = defineComponent({ setup: () => () => h('p', 'settings') });
/**
 * @param nested the dashboard inside the page's own root element, as a route's page has it (else it is the page's root)
 * @param keeper the <KeepAlive> (Vue's own, or one simulating another Vue: {@link keepAliveWithout})
 */
function app(
  session: ReturnType<typeof mintSessions>,
  tab: Ref<'sales' | 'settings'>,
  scheme: Ref<'light' | 'dark'>,
  nested = false,
  keeper: Component = KeepAlive,
) {
  const embed = ref<{ embed: EmbedHandle<'dashboard'> } | null>(null);
  const Sales = defineComponent({
    name: 'Sales',
    setup: () => () => {
      const dashboard = h(PlatformDashboard, { ref: embed, baseUrl: BASE, publicId: 'sales', session, colorScheme: scheme.value });
      return nested ? h('section', [h('h1', 'Sales'), dashboard]) : dashboard;
    },
  });
  const wrapper = mount(defineComponent({ setup: () => () => h(keeper, null, [tab.value == 'sales' ? h(Sales) : h(Other)]) }), {
    attachTo: document.body,
  });
  mounted.push(wrapper);
  return { wrapper, handle: () => embed.value?.embed };
}

test('with moveBefore: deactivated and activated, the same iframe keeps its document; no session; a change made meanwhile is an action', async () => {
  restore = withMoveBefore().restore;
  const session = mintSessions();
  const tab = ref<'sales' | 'settings'>('sales');
  const scheme = ref<'light' | 'dark'>('light');
  const { wrapper, handle } = app(session, tab, scheme);
  await settle();
  const first = handle()!;
  const iframe = iframes()[0]!;
  const win = iframe.contentWindow!;
  emit(iframe, 'ready', payload('ready'));
  tab.value = 'settings';
  await nextTick();
  await settle();
  expect(first.getState().status).toBe('ready');
  expect(iframe.isConnected).toBe(true); // aside in the page's lot, not in Vue's detached container
  const post = vi.spyOn(win, 'postMessage').mockImplementation(() => {});
  scheme.value = 'dark';
  tab.value = 'sales';
  await nextTick();
  await settle();
  expect(handle()).toBe(first);
  expect(iframes()).toEqual([iframe]);
  expect(wrapper.element.parentElement!.contains(iframe)).toBe(true);
  expect(session).toHaveBeenCalledTimes(1);
  expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'dark' }]);
  wrapper.unmount();
});

test('without moveBefore: the same handle loads again with a fresh session (never the used one), its state replayed', async () => {
  const session = mintSessions();
  const tab = ref<'sales' | 'settings'>('sales');
  const { wrapper, handle } = app(session, tab, ref('light'));
  await settle();
  const first = handle()!;
  emit(iframes()[0]!, 'ready', payload('ready'));
  emit(iframes()[0]!, 'navigate', { path: '/d/sales/q3' });
  tab.value = 'settings';
  await nextTick();
  await settle();
  expect(iframes()).toEqual([]);
  tab.value = 'sales';
  await nextTick();
  await settle();
  expect(handle()).toBe(first);
  expect(session).toHaveBeenCalledTimes(2);
  expect(new URL(iframes()[0]!.src).searchParams.get('session')).toBe(session.id(2));
  const post = vi.spyOn(iframes()[0]!.contentWindow!, 'postMessage');
  emit(iframes()[0]!, 'ready', payload('ready'));
  expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'light' }, { path: '/d/sales/q3' }]);
  wrapper.unmount();
});

test('with moveBefore, the dashboard inside the root element of the page (as a route page has it): deactivated, its iframe is aside before Vue detaches the page; activated, the same document', async () => {
  restore = withMoveBefore().restore;
  const session = mintSessions();
  const tab = ref<'sales' | 'settings'>('sales');
  const { wrapper, handle } = app(session, tab, ref('light'), true);
  await settle();
  const first = handle()!;
  const iframe = iframes()[0]!;
  emit(iframe, 'ready', payload('ready'));
  tab.value = 'settings';
  await nextTick();
  await settle();
  expect(iframe.isConnected).toBe(true);
  expect(first.getState().status).toBe('ready');
  tab.value = 'sales';
  await nextTick();
  await settle();
  expect(handle()).toBe(first);
  expect(iframes()).toEqual([iframe]);
  expect(wrapper.element.parentElement!.querySelector('section [data-platform-embed]')!.contains(iframe)).toBe(true);
  expect(session).toHaveBeenCalledTimes(1);
  wrapper.unmount();
});

test.each([true, false])(
  'a prop changed while deactivated (the page re-renders): the embed stays aside, the change applied there; activated, it comes back (nested: %s)',
  async (nested) => {
    const moves = withMoveBefore();
    restore = moves.restore;
    const session = mintSessions();
    const tab = ref<'sales' | 'settings'>('sales');
    const scheme = ref<'light' | 'dark'>('light');
    const { wrapper, handle } = app(session, tab, scheme, nested);
    await settle();
    const first = handle()!;
    const iframe = iframes()[0]!;
    const post = vi.spyOn(iframe.contentWindow!, 'postMessage').mockImplementation(() => {});
    emit(iframe, 'ready', payload('ready'));
    tab.value = 'settings';
    await nextTick();
    await settle();
    post.mockClear();
    scheme.value = 'dark';
    await nextTick();
    await settle();
    expect(iframe.isConnected).toBe(true);
    expect(first.getState().status).toBe('ready');
    expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'dark' }]);
    tab.value = 'sales';
    await nextTick();
    await settle();
    expect(handle()).toBe(first);
    expect(iframes()).toEqual([iframe]);
    expect(wrapper.element.parentElement!.querySelector('[data-platform-embed]')!.contains(iframe)).toBe(true);
    expect(session).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledTimes(1);
    wrapper.unmount();
  },
);

test('without moveBefore, a prop changed while deactivated: nothing loads until activated, then one fresh session with the change', async () => {
  const session = mintSessions();
  const tab = ref<'sales' | 'settings'>('sales');
  const scheme = ref<'light' | 'dark'>('light');
  const { wrapper, handle } = app(session, tab, scheme, true);
  await settle();
  emit(iframes()[0]!, 'ready', payload('ready'));
  tab.value = 'settings';
  await nextTick();
  await settle();
  scheme.value = 'dark';
  await nextTick();
  await settle();
  expect(iframes()).toEqual([]);
  expect(session).toHaveBeenCalledTimes(1);
  expect(handle()!.getState().status).not.toBe('error');
  tab.value = 'sales';
  await nextTick();
  await settle();
  expect(session).toHaveBeenCalledTimes(2);
  const post = vi.spyOn(iframes()[0]!.contentWindow!, 'postMessage');
  emit(iframes()[0]!, 'ready', payload('ready'));
  expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'dark' }]);
  wrapper.unmount();
});

test.each([
  ['valueless (`<PlatformDashboard keep-alive />`)', ''],
  ['true', true],
  ['a name', 'sales-kept'],
])('the keep-alive prop %s: unmounted, the embed is parked, and the next dashboard with its name adopts it', async (_, keepAlive) => {
  restore = withMoveBefore().restore;
  const session = mintSessions();
  const shown = ref(true);
  const embed = ref<{ embed: EmbedHandle<'dashboard'> } | null>(null);
  const wrapper = mount(
    defineComponent({
      setup: () => () =>
        shown.value
          ? h('section', [h(PlatformDashboard, { ref: embed, keepAlive, baseUrl: BASE, publicId: 'sales', session })])
          : h('p', 'settings'),
    }),
    { attachTo: document.body },
  );
  mounted.push(wrapper);
  await settle();
  const first = embed.value!.embed;
  const iframe = iframes()[0]!;
  shown.value = false;
  await nextTick();
  await settle();
  expect(parkedCount()).toBe(1);
  expect(iframe.isConnected).toBe(true);
  shown.value = true;
  await nextTick();
  await settle();
  expect(embed.value!.embed).toBe(first);
  expect(iframes()).toEqual([iframe]);
  expect(session).toHaveBeenCalledTimes(1);
  wrapper.unmount();
  first.destroy();
});

// Issue 22, point 8: `ready` is sticky for an adopting component.
test('a <PlatformDashboard keep-alive> that adopts a ready parked embed emits ready once', async () => {
  restore = withMoveBefore().restore;
  const session = mintSessions();
  const shown = ref(true);
  const readies: unknown[] = [];
  const wrapper = mount(
    defineComponent({
      setup: () => () =>
        shown.value
          ? h(PlatformDashboard, { keepAlive: true, baseUrl: BASE, publicId: 'sales', session, onReady: (p: unknown) => readies.push(p) })
          : h('p', 'settings'),
    }),
    { attachTo: document.body },
  );
  mounted.push(wrapper);
  await settle();
  const iframe = iframes()[0]!;
  // (jsdom gives a moved frame a new window, where Chromium's move keeps it: the SDK posts to the one it had.)
  vi.spyOn(iframe.contentWindow!, 'postMessage').mockImplementation(() => {});
  emit(iframe, 'ready', payload('ready'));
  expect(readies).toHaveLength(1);
  shown.value = false;
  await nextTick();
  await settle();
  expect(parkedCount()).toBe(1);
  shown.value = true;
  await nextTick();
  await settle();
  expect(parkedCount()).toBe(0);
  expect(readies).toEqual([payload('ready'), payload('ready')]);
  wrapper.unmount();
});

/*
 * The binding finds <KeepAlive>'s moment before the move through a Vue internal (its context's
 * `deactivate`), which no public API promises. A Vue where it is missing or has another shape
 * must still work: the embed is parked cold (its frame is gone with Vue's move; activated, the
 * same handle loads again with a fresh session and its state), never an error.
 */

/** Vue's <KeepAlive>, as a Vue whose internal is missing or of another shape shows it to the components set up inside it. */
const keepAliveWithout = (shape: (context: Record<string, unknown>) => void): Component => {
  const impl = KeepAlive as unknown as { setup(props: object, context: SetupContext): unknown };
  return {
    ...(KeepAlive as object),
    setup(props: object, context: SetupContext) {
      const render = impl.setup(props, context);
      const shared = (getCurrentInstance() as unknown as { ctx: Record<string, unknown> }).ctx;
      const deactivate = shared.deactivate;
      shape(shared);
      // (From its mount on, Vue's renderer finds its own `deactivate` again, for the moves it makes.)
      onMounted(() => Object.defineProperty(shared, 'deactivate', { value: deactivate, writable: true, configurable: true }));
      return render;
    },
  } as Component;
};

const define = (context: Record<string, unknown>, property: PropertyDescriptor) =>
  Object.defineProperty(context, 'deactivate', { configurable: true, ...property });
const shapes: [string, (context: Record<string, unknown>) => void][] = [
  ['missing', (context) => delete context.deactivate],
  ['not a function', (context) => (context.deactivate = { deactivate: true })],
  ['read-only (an assignment throws)', (context) => define(context, { value: context.deactivate, writable: false })],
  ['an accessor that ignores the assignment', (context) => define(context, { get: () => () => true, set: () => {} })],
  [
    'a getter that throws',
    (context) =>
      define(context, {
        get: () => {
          throw new Error('internal');
        },
      }),
  ],
];

test.each(shapes)(
  "Vue's internal %s: deactivated with moveBefore, the embed is parked cold; activated, the same handle loads again with a fresh session and its state, never an error",
  async (_, shape) => {
    restore = withMoveBefore().restore;
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    const session = mintSessions();
    const tab = ref<'sales' | 'settings'>('sales');
    const scheme = ref<'light' | 'dark'>('light');
    const { wrapper, handle } = app(session, tab, scheme, true, keepAliveWithout(shape));
    await settle();
    const first = handle()!;
    const iframe = iframes()[0]!;
    emit(iframe, 'ready', payload('ready'));
    emit(iframe, 'navigate', { path: '/d/sales/q3' });
    tab.value = 'settings';
    await nextTick();
    await settle();
    // Vue took the frame out with the page: gone, not aside.
    expect(iframe.isConnected).toBe(false);
    expect(iframes()).toEqual([]);
    scheme.value = 'dark';
    tab.value = 'sales';
    await nextTick();
    await settle();
    expect(handle()).toBe(first);
    expect(first.getState().status).toBe('loading');
    expect(session).toHaveBeenCalledTimes(2);
    const again = iframes()[0]!;
    expect(again).not.toBe(iframe);
    expect(wrapper.element.parentElement!.querySelector('section [data-platform-embed]')!.contains(again)).toBe(true);
    expect(new URL(again.src).searchParams.get('session')).toBe(session.id(2));
    const post = vi.spyOn(again.contentWindow!, 'postMessage');
    emit(again, 'ready', payload('ready'));
    expect(first.getState().status).toBe('ready');
    expect(post.mock.calls.map(([m]) => (m as { payload: unknown }).payload)).toEqual([{ scheme: 'dark' }, { path: '/d/sales/q3' }]);
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
    wrapper.unmount();
  },
);
