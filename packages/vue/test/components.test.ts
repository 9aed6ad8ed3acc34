import { defineComponent, h, nextTick, onMounted, ref, type Ref } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { EVENT_SCHEMAS, listenerCount, type EventName } from '@platform-embed/core';
import { PlatformApp, PlatformChat, PlatformDashboard, type PlatformEmbedExpose } from '../src/index';
import { BASE, emit, freshId, iframes, mintSessions, payload, settle } from '../../core/test/helpers';

let wrappers: VueWrapper[] = [];
const track = <W extends VueWrapper>(w: W): W => (wrappers.push(w), w);
// An unmount destroys the embed at the end of the task: `settle` lets that run.
afterEach(async () => {
  wrappers.forEach((w) => w.unmount());
  wrappers = [];
  await settle();
  expect(iframes()).toHaveLength(0);
  expect(listenerCount()).toBe(0);
});

const dashboard = (props: Record<string, unknown>, attrs: Record<string, unknown> = {}) =>
  track(mount(PlatformDashboard, { props: { baseUrl: BASE, publicId: 'sales', ...props } as never, attrs, attachTo: document.body }));

describe('mounting', () => {
  test('renders a container with one iframe built from the props; class and style go to the container', async () => {
    const session = mintSessions();
    const w = dashboard({ session, allowExport: true }, { class: 'box', style: 'height: 300px' });
    await settle();
    expect(w.element.className).toBe('box');
    expect((w.element as HTMLElement).style.height).toBe('300px');
    expect(w.element.getAttribute('data-platform-embed')).toBe('dashboard');
    expect(session).toHaveBeenCalledOnce();
    expect(iframes().map((f) => f.src)).toEqual([`${BASE}/embed/dashboard/sales?session=${session.id(1)}&allowExport=true`]);
    expect(w.element.firstElementChild).toBe(iframes()[0]);
    expect(w.element.hasAttribute('base-url') || w.element.hasAttribute('baseUrl')).toBe(false);
  });

  test('a valueless flag attribute (allow-export) is cast to true', async () => {
    const session = mintSessions();
    dashboard({ session, allowExport: '', showDashboardHeader: false });
    await settle();
    expect(iframes()[0]!.src).toBe(`${BASE}/embed/dashboard/sales?session=${session.id(1)}&allowExport=true&showDashboardHeader=false`);
  });

  test('a valueless debug attribute is cast to true: logs through console.debug', async () => {
    const log = vi.spyOn(console, 'debug').mockImplementation(() => {});
    try {
      dashboard({ session: mintSessions(), debug: '' });
      await settle();
      expect(log).toHaveBeenCalledWith('[platform-embed]', 'mount', expect.stringContaining('/embed/dashboard/sales'));
    } finally {
      log.mockRestore();
    }
  });

  test('a debug function receives the logs', async () => {
    const debug = vi.fn();
    dashboard({ session: mintSessions(), debug });
    await settle();
    expect(debug).toHaveBeenCalledWith('mount', expect.stringContaining('/embed/dashboard/sales'));
  });

  test('absent launch flags stay absent (not cast to false)', async () => {
    const id = freshId();
    dashboard({ session: id });
    await settle();
    expect(iframes()[0]!.src).toBe(`${BASE}/embed/dashboard/sales?session=${id}`);
  });

  test.each([
    ['chat', PlatformChat, { session: 'c-1' }, `${BASE}/embed/chat?sessionId=c-1`],
    ['chat (private mode)', PlatformChat, {}, `${BASE}/embed/chat`],
    [
      'app',
      PlatformApp,
      { deploymentId: 12, session: 'a-1', showWorkbookBackButton: false },
      `${BASE}/embed/d/12/app?session=a-1&showWorkbookBackButton=false`,
    ],
  ])('%s surface', async (_, component, props, url) => {
    track(mount(component as typeof PlatformChat, { props: { baseUrl: BASE, ...props } as never, attachTo: document.body }));
    await settle();
    expect(iframes().map((f) => f.src)).toEqual([url]);
  });

  test('unmount removes the iframe and the listener; a pending session is aborted', async () => {
    let signal: AbortSignal | undefined;
    const w = dashboard({ session: ({ signal: s }: { signal: AbortSignal }) => ((signal = s), new Promise(() => {})) });
    await settle();
    w.unmount();
    wrappers = [];
    await settle();
    expect(signal?.aborted).toBe(true);
    const w2 = dashboard({ session: freshId() });
    await settle();
    expect(listenerCount()).toBe(1);
    w2.unmount();
    wrappers = [];
    await settle();
    expect(iframes()).toHaveLength(0);
    expect(listenerCount()).toBe(0);
  });
});

describe('emits', () => {
  test('every catalog event is an emit', () => {
    expect(PlatformDashboard).toHaveProperty('emits', [...Object.keys(EVENT_SCHEMAS), 'event']);
  });

  test.each(Object.keys(EVENT_SCHEMAS) as EventName[])('%s is emitted with payload and envelope, and as `event`', async (name) => {
    // (`error` is passed on while the host listens: the SDK's own errors go to the console otherwise.)
    const w = dashboard({ session: freshId(), ...(name == 'error' && { onError: () => {} }) });
    await settle();
    if (name != 'ready') emit(iframes()[0]!, 'ready', payload('ready'));
    emit(iframes()[0]!, name, payload(name));
    const emitted = w.emitted();
    for (const other of Object.keys(EVENT_SCHEMAS))
      expect(emitted[other]?.length ?? 0, other).toBe(other == name || other == 'ready' ? 1 : 0);
    expect(emitted[name]![0]).toEqual([payload(name), expect.objectContaining({ type: `platform:event:${name}` })]);
    expect(emitted.event!.at(-1)).toEqual([expect.objectContaining({ type: `platform:event:${name}`, payload: payload(name) })]);
  });

  test('listeners bound as @dashboard-loaded / onAiQuery are called; invalid messages are not emitted', async () => {
    const onDashboardLoaded = vi.fn();
    const onAiQuery = vi.fn();
    const onDiagnostic = vi.fn();
    track(
      mount(PlatformDashboard, {
        props: { baseUrl: BASE, publicId: 'p', session: freshId(), onDashboardLoaded, onAiQuery, onDiagnostic },
        attachTo: document.body,
      }),
    );
    await settle();
    emit(iframes()[0]!, 'dashboard-loaded', payload('dashboard-loaded'));
    emit(iframes()[0]!, 'ai-query', { query: 'x', status: 'pending' });
    emit(iframes()[0]!, 'ai-query', payload('ai-query'), 'https://evil.example');
    expect(onDashboardLoaded).toHaveBeenCalledWith(payload('dashboard-loaded'), expect.objectContaining({ surface: 'dashboard' }));
    expect(onAiQuery).not.toHaveBeenCalled();
    expect(onDiagnostic.mock.calls.map(([d]) => d.kind)).toEqual(['invalid-message', 'origin-mismatch']);
  });

  test('a listener changed between renders is used without remounting', async () => {
    const session = mintSessions();
    const first = vi.fn();
    const second = vi.fn();
    const w = track(mount(PlatformDashboard, { props: { baseUrl: BASE, publicId: 'p', session, onView: first }, attachTo: document.body }));
    await settle();
    const iframe = iframes()[0];
    await w.setProps({ onView: second, session: mintSessions() });
    await settle();
    emit(iframes()[0]!, 'view', payload('view'));
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([0, 1]);
    expect(iframes()[0]).toBe(iframe);
    expect(session).toHaveBeenCalledOnce();
  });
});

describe('what is embedded', () => {
  const filters = { 'orders.status': { value: 'open' } };
  test.each([
    ['publicId', { publicId: 'costs' }, '${BASE}/embed/dashboard/costs?session=SESSION&f_orders.status=%7B%22value%22%3A%22open%22%7D'],
    [
      'a launch option without an action',
      { allowExport: true },
      '${BASE}/embed/dashboard/sales?session=SESSION&allowExport=true&f_orders.status=%7B%22value%22%3A%22open%22%7D',
    ],
    [
      'an iframe attribute',
      { allow: 'fullscreen' },
      '${BASE}/embed/dashboard/sales?session=SESSION&f_orders.status=%7B%22value%22%3A%22open%22%7D',
    ],
  ])('changing %s reloads in a new iframe with a fresh session', async (_, change, url) => {
    const session = mintSessions();
    const w = dashboard({ session, filters });
    await settle();
    const before = iframes()[0];
    await w.setProps(change as never);
    await settle();
    expect(session).toHaveBeenCalledTimes(2);
    expect(iframes().map((f) => f.src)).toEqual([url.replace('${BASE}', BASE).replace('SESSION', session.id(2))]);
    expect(iframes()[0]).not.toBe(before);
  });

  test('changing locale, a filter value, color-scheme or title: an action or an attribute, same iframe, no new session', async () => {
    const session = mintSessions();
    const w = dashboard({ session, filters });
    await settle();
    const iframe = iframes()[0]!;
    emit(iframe, 'ready', payload('ready'));
    const post = vi.spyOn(iframe.contentWindow!, 'postMessage');
    await w.setProps({ locale: 'es-MX', filters: { 'orders.status': { value: 'done' } }, colorScheme: 'dark', title: 'Sales' } as never);
    await settle();
    expect(session).toHaveBeenCalledOnce();
    expect(iframes()).toEqual([iframe]);
    expect(iframe.title).toBe('Sales');
    expect(post.mock.calls.map(([m]) => (m as { type: string }).type).sort()).toEqual([
      'platform:action:set-color-scheme',
      'platform:action:set-filter',
      'platform:action:set-locale',
    ]);
  });

  test('equal values in new objects (any key order), container attributes and readyTimeout do not reload', async () => {
    const session = mintSessions();
    const w = dashboard({ session, filters, timeGrains: { 'orders.shipped_at': 'day', 'orders.created_at': 'month' } });
    await settle();
    const iframe = iframes()[0];
    await w.setProps({
      filters: { 'orders.status': { value: 'open' } },
      timeGrains: { 'orders.created_at': 'month', 'orders.shipped_at': 'day' },
      readyTimeout: 5,
      class: 'x',
    } as never);
    await settle();
    expect(session).toHaveBeenCalledOnce();
    expect(iframes()[0]).toBe(iframe);
  });

  test('a new session id string loads with it; the same string is never loaded twice', async () => {
    const [one, two] = [freshId(), freshId()];
    const w = dashboard({ session: one });
    await settle();
    await w.setProps({ session: two } as never);
    await settle();
    expect(iframes().map((f) => f.src)).toEqual([`${BASE}/embed/dashboard/sales?session=${two}`]);
    await w.setProps({ publicId: 'costs' } as never);
    await settle();
    expect(iframes()).toHaveLength(0);
    const vm = w.vm as unknown as PlatformEmbedExpose<'dashboard'>;
    expect(vm.state).toMatchObject({ status: 'error', error: { code: 'session' } });
    expect(vm.state.error!.message).not.toContain(two);
  });
});

describe('template ref', () => {
  const Parent = (calls: (dash: PlatformEmbedExpose<'dashboard'>) => void, extra: Record<string, unknown> = {}) =>
    defineComponent({
      setup() {
        const dash = ref() as Ref<PlatformEmbedExpose<'dashboard'>>;
        onMounted(() => calls(dash.value));
        return () => h(PlatformDashboard, { ref: dash, baseUrl: BASE, publicId: 'sales', session: freshId(), ...extra });
      },
    });

  test("exposed actions work from the parent's onMounted: kept, then in the first URL or posted to the tenant origin", async () => {
    track(
      mount(
        Parent((dash) => (dash.setColorScheme('dark'), dash.setLocale('es'))),
        { attachTo: document.body },
      ),
    );
    await settle();
    const post = vi.spyOn(iframes()[0]!.contentWindow!, 'postMessage');
    emit(iframes()[0]!, 'ready', payload('ready'));
    expect(post.mock.calls.map(([m, origin]) => [(m as { type: string }).type, origin])).toEqual([
      ['platform:action:set-color-scheme', BASE],
    ]);
    // Set before the iframe was created: the locale went into its URL.
    expect(new URL(iframes()[0]!.src).searchParams.get('locale')).toBe('es');
  });

  test('state and embed are exposed; reload() uses a fresh session', async () => {
    const session = mintSessions();
    let dash!: PlatformEmbedExpose<'dashboard'>;
    track(
      mount(
        Parent((d) => (dash = d), { session }),
        { attachTo: document.body },
      ),
    );
    await settle();
    expect(dash.state.status).toBe('loading');
    emit(iframes()[0]!, 'ready', payload('ready'));
    expect(dash.state).toMatchObject({ status: 'ready', ready: { mode: 'signed' } });
    expect(dash.embed!.surface).toBe('dashboard');
    void dash.reload();
    await settle();
    expect(session).toHaveBeenCalledTimes(2);
    expect(iframes().map((f) => f.src)).toEqual([`${BASE}/embed/dashboard/sales?session=${session.id(2)}`]);
    expect(() => dash.setFilter('orders.status=x')).toThrow(/set-filter/);
  });
});

test('nextTick-batched prop changes reload once', async () => {
  const session = mintSessions();
  const w = dashboard({ session });
  await settle();
  await w.setProps({ publicId: 'a', locale: 'fr' } as never);
  await nextTick();
  await settle();
  expect(session).toHaveBeenCalledTimes(2);
});
