import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { embedApp, embedChat, embedDashboard, listenerCount, type Diagnostic, type EmbedHandle } from '@platform-embed/core';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import { envelope } from './helpers';

/*
 * The testing kit (`@platform-embed/core/testing`): the fake replaces only the frame. Events go
 * through the real page listener, its source and origin checks, validation and handlers.
 */

const BASE = 'https://acme.platform.example';
let fake: FakePlatform;
let handles: EmbedHandle[] = [];
const track = <H extends EmbedHandle>(h: H): H => (handles.push(h), h);
const dashboard = (options: Partial<Parameters<typeof embedDashboard>[0]> = {}) =>
  track(embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'sales', session: async () => fake.createSession(), ...options }));

beforeEach(() => {
  document.body.innerHTML = '<div id="c"></div><div id="d"></div>';
  fake = installFakePlatform();
});
afterEach(() => {
  fake.uninstall();
  handles.forEach((h) => h.destroy());
  handles = [];
  expect(listenerCount()).toBe(0);
});

describe('installFakePlatform', () => {
  test('ready() answers the next embed that mounts: ready payload from the URL, through the real listener', async () => {
    const h = dashboard();
    const embed = await fake.ready();
    expect(h.getState().status).toBe('ready');
    await expect(h.ready).resolves.toEqual({ embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard', publicId: 'sales' });
    expect(embed).toMatchObject({ surface: 'dashboard', origin: BASE, iframe: h.iframe, mounted: true });
    expect(embed.url.pathname).toBe('/embed/dashboard/sales');
    expect(fake.embeds).toEqual([embed]);
  });

  test('emit(): typed handlers get the payload', async () => {
    const onDrilldown = vi.fn();
    const h = dashboard({ onDrilldown });
    const seen = vi.fn();
    h.on('drilldown', seen);
    const embed = await fake.ready();
    await embed.emit('drilldown', { member: 'orders.count', value: 3 });
    expect(onDrilldown).toHaveBeenCalledWith({ member: 'orders.count', value: 3 }, expect.objectContaining({ surface: 'dashboard' }));
    expect(seen).toHaveBeenCalledTimes(1);
  });

  test('emit() with a payload the catalog refuses, or an unknown event, rejects at the caller (the SDK would drop it); post() sends it to the real validation', async () => {
    const onDiagnostic = vi.fn<(d: Diagnostic) => void>();
    const onDrilldown = vi.fn();
    dashboard({ onDiagnostic, onDrilldown });
    const embed = await fake.ready();
    await expect(embed.emit('drilldown', { member: 42 } as never)).rejects.toThrow(
      /embed\.emit\("drilldown"\): "member" must be string \(got 42\)\. The SDK would drop this event.*embed\.post/,
    );
    await expect(embed.emit('drilldwon' as never, { member: 'orders.count' } as never)).rejects.toThrow(
      /"drilldwon" is not an event of the catalog \(ready, .*drilldown/,
    );
    await expect(embed.emit('drilldown', 'orders.count' as never)).rejects.toThrow('the payload must be an object');
    await expect(embed.ready({ deploymentId: 'one' as never })).rejects.toThrow('"deploymentId" must be');
    expect(onDrilldown).not.toHaveBeenCalled();
    expect(onDiagnostic).not.toHaveBeenCalled();
    await embed.post(envelope('drilldown', { member: 42 }));
    expect(onDrilldown).not.toHaveBeenCalled();
    expect(onDiagnostic).toHaveBeenCalledWith({ kind: 'invalid-message', reason: expect.stringContaining('"member" must be string') });
  });

  test('the origin check still applies: a message from the frame on another origin is dropped', async () => {
    const onDiagnostic = vi.fn<(d: Diagnostic) => void>();
    const onView = vi.fn();
    dashboard({ onDiagnostic, onView });
    const embed = await fake.ready();
    await embed.post(envelope('view', { surface: 'dashboard', path: '/x' }), 'https://evil.example');
    expect(onView).not.toHaveBeenCalled();
    expect(onDiagnostic).toHaveBeenCalledWith({ kind: 'origin-mismatch', origin: 'https://evil.example' });
  });

  test('actions: what the SDK posted to the iframe, queued ones first, in order; launch options in the URL', async () => {
    const h = dashboard({ colorScheme: 'dark', allowExport: true });
    h.setTheme({ primaryColor: '#123' });
    const embed = await fake.ready();
    expect(embed.url.searchParams.get('allowExport')).toBe('true');
    h.setFilter('orders', 'status', { value: 'open' });
    h.refresh();
    expect(embed.actions).toEqual([
      { type: 'set-color-scheme', payload: { scheme: 'dark' } },
      { type: 'set-theme', payload: { primaryColor: '#123' } },
      { type: 'set-filter', payload: { filterUrlParameter: 'f_orders.status={"value":"open"}' } },
      { type: 'refresh', payload: {} },
    ]);
  });

  test('sessions: one per load; a reload is the same embed with a new iframe', async () => {
    const h = dashboard();
    const embed = await fake.ready();
    const first = embed.iframe;
    void h.reload();
    expect(await fake.ready()).toBe(embed);
    expect(embed.iframe).not.toBe(first);
    expect(embed.sessions).toHaveLength(2);
    expect(embed.sessions[0]).not.toBe(embed.sessions[1]);
    expect(embed.sessions.every((s) => s?.startsWith('fake-session-'))).toBe(true);
  });

  test('fail(): a fatal error; without retries the embed is in the error state with the cause', async () => {
    const h = dashboard({ retry: false });
    const embed = await fake.ready();
    await embed.fail('session expired');
    expect(h.getState().status).toBe('error');
    expect(h.error).toMatchObject({ code: 'fatal', message: expect.stringContaining('session expired') });
  });

  test('fail() before ready, with retries: the retry is the same embed with a fresh session', async () => {
    const h = dashboard({ retry: 1 });
    const embed = await fake.next();
    expect(h.getState().status).toBe('loading');
    await embed.fail();
    expect(await fake.ready()).toBe(embed);
    expect(h.getState().status).toBe('ready');
    expect(embed.sessions).toHaveLength(2);
  });

  test('next() does not answer: the embed stays loading until embed.ready()', async () => {
    const h = dashboard();
    const embed = await fake.next();
    expect(h.getState().status).toBe('loading');
    await embed.ready({ embedTenant: 'acme-corp' });
    expect(h.getState().ready).toMatchObject({ embedTenant: 'acme-corp' });
  });

  test('private mode, chat and app: the session parameter of each surface, the ready payload of each', async () => {
    const d = track(embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'sales' }));
    const c = track(embedChat({ container: '#d', baseUrl: BASE, session: fake.createSession() }));
    const first = await fake.ready();
    const second = await fake.ready();
    expect(first.sessions).toEqual([null]);
    expect(d.getState().ready).toMatchObject({ mode: 'private', deploymentId: null });
    expect(second.surface).toBe('chat');
    expect(second.sessions).toEqual([expect.stringMatching(/^fake-session-/)]);
    expect(c.getState().ready).toMatchObject({ mode: 'signed', surface: 'chat' });
    d.destroy();
    c.destroy();
    document.body.innerHTML = '<div id="a"></div>';
    const a = track(embedApp({ container: '#a', baseUrl: BASE, deploymentId: 7, session: fake.createSession() }));
    await fake.ready();
    expect(a.getState().ready).toMatchObject({ surface: 'app', deploymentId: 7, mode: 'signed' });
  });

  test('two embeds: each has its own fake, and an event from one never reaches the other', async () => {
    const one = vi.fn();
    const two = vi.fn();
    dashboard({ onDrilldown: one });
    dashboard({ container: '#d', onDrilldown: two });
    const [a, b] = [await fake.ready(), await fake.ready()];
    await b!.emit('drilldown', { member: 'orders.count' });
    expect(one).not.toHaveBeenCalled();
    expect(two).toHaveBeenCalledTimes(1);
    expect(a).not.toBe(b);
  });

  test('an embed mounted before install is found; destroy unmounts it', async () => {
    fake.uninstall();
    const h = dashboard();
    await vi.waitFor(() => expect(h.iframe).not.toBeNull());
    fake = installFakePlatform();
    const embed = await fake.ready();
    expect(h.getState().status).toBe('ready');
    h.destroy();
    expect(embed.mounted).toBe(false);
  });

  test('with `act`, every dispatch runs inside it', async () => {
    fake.uninstall();
    const act = vi.fn(async (fn: () => Promise<void>) => fn());
    fake = installFakePlatform({ act });
    dashboard();
    const embed = await fake.ready();
    await embed.emit('view', { surface: 'dashboard', path: '/d' });
    expect(act).toHaveBeenCalledTimes(2);
  });

  test("without structuredClone (Jest's jsdom environment) the SDK copies action payloads as JSON", async () => {
    vi.stubGlobal('structuredClone', undefined);
    try {
      const h = dashboard();
      const embed = await fake.ready();
      const theme = { primaryColor: '#123', nested: { list: [1, 'a'] } };
      h.setTheme(theme);
      expect(embed.actions.at(-1)).toEqual({ type: 'set-theme', payload: theme });
      expect((embed.actions.at(-1)!.payload as typeof theme).nested).not.toBe(theme.nested);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  test("a test's 429 leaves no page-wide wait to the next: install and uninstall end the Retry-After wait", async () => {
    const RECORD = Symbol.for('platform-embed.sessions@2');
    const record = () => (globalThis as unknown as Record<symbol, { until: number; line: unknown }>)[RECORD]!;
    // This test: the session route answers 429, Retry-After: 30 (the page waits 30 s before the next call).
    const limited = dashboard({ retry: false, session: async () => new Response('', { status: 429, headers: { 'retry-after': '30' } }) });
    await expect(limited.ready).rejects.toMatchObject({ code: 'session' });
    expect(record().until).toBeGreaterThan(Date.now() + 20000);
    limited.destroy();
    // The next test: its embed's session is asked for at once, not in 30 s.
    fake.uninstall();
    expect(record()).toMatchObject({ until: 0, line: 0 });
    record().until = Date.now() + 30000; // (a wait left by a test run without the kit)
    fake = installFakePlatform();
    expect(record().until).toBe(0);
    dashboard();
    await fake.ready(undefined, { timeout: 1000 });
  });

  test('no embed mounts: next() rejects with what to check; uninstall() rejects the waiting calls', async () => {
    fake.uninstall();
    fake = installFakePlatform({ timeout: 20 });
    await expect(fake.next()).rejects.toThrow(/no embed mounted within 20 ms: render the component first/);
    const waiting = fake.ready();
    fake.uninstall();
    await expect(waiting).rejects.toThrow('uninstalled');
  });

  test("the default wait, 3 s, outlasts the SDK's longest retry delay (2 s) and ends before the runners' default test timeout (5 s)", async () => {
    vi.useFakeTimers();
    try {
      const waiting = fake.next();
      const outcome = vi.fn();
      waiting.then(outcome, outcome);
      await vi.advanceTimersByTimeAsync(2999);
      expect(outcome).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(outcome).toHaveBeenCalledWith(
        expect.objectContaining({ message: expect.stringContaining('no embed mounted within 3000 ms') }),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  test('each ready() or next() call may wait a time of its own, and the message says how', async () => {
    await expect(fake.next({ timeout: 30 })).rejects.toThrow(/within 30 ms.*fake\.next\(\{ timeout \}\)/);
    await expect(fake.ready(undefined, { timeout: 10 })).rejects.toThrow('within 10 ms');
    const h = dashboard();
    expect(await fake.ready(undefined, { timeout: 1000 })).toMatchObject({ iframe: h.iframe });
  });

  test('embed.actions read before ready: the SDK holds actions until then, and the kit says so once; isReady tells', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const h = dashboard({ colorScheme: 'dark' });
      const embed = await fake.next();
      expect(embed.isReady).toBe(false);
      expect(embed.actions).toEqual([]);
      expect(embed.actions).toEqual([]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(/embed\.actions was read before this embed was answered with ready.*await fake\.ready\(\)/);
      await embed.ready();
      expect(embed.isReady).toBe(true);
      expect(embed.actions).toEqual([{ type: 'set-color-scheme', payload: { scheme: 'dark' } }]);
      // A reload is a new load: not ready until answered again.
      void h.reload();
      await fake.next();
      expect(embed.isReady).toBe(false);
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  test('a second installFakePlatform() without uninstall() warns, and uninstalls the first (only the new one answers)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const first = fake;
      const waiting = first.next();
      fake = installFakePlatform();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]![0]).toMatch(
        /installFakePlatform\(\) was called while another fake platform is installed: call fake\.uninstall\(\) after each test/,
      );
      await expect(waiting).rejects.toThrow('uninstalled');
      const h = dashboard();
      await fake.ready();
      expect(h.getState().status).toBe('ready');
      expect(first.embeds).toEqual([]);
      // After uninstall(), installing again is quiet.
      fake.uninstall();
      fake = installFakePlatform();
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });
});
