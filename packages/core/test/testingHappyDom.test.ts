// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { embedChat, embedDashboard, listenerCount, type EmbedHandle } from '@platform-embed/core';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';

/*
 * The testing kit in happy-dom (Vitest's `environment: 'happy-dom'`), which loads no iframe page:
 * its iframes have no window. The kit lends each a stand-in while it is installed. Found by
 * h/attack3: every call timed out with "no embed mounted within 3000 ms" (was: the SDK routed a
 * null window, and the fake skipped an iframe without one).
 */

const BASE = 'https://acme.platform.example';
let fake: FakePlatform;
const handles: EmbedHandle[] = [];
const dashboard = (options: Partial<Parameters<typeof embedDashboard>[0]> = {}) => {
  const handle = embedDashboard({
    container: '#c',
    baseUrl: BASE,
    publicId: 'sales',
    session: async () => fake.createSession(),
    ...options,
  });
  handles.push(handle);
  return handle;
};

beforeEach(() => {
  document.body.innerHTML = '<div id="c"></div><div id="d"></div>';
  fake = installFakePlatform({ timeout: 1000 });
});
afterEach(() => {
  fake.uninstall();
  handles.splice(0).forEach((h) => h.destroy());
  expect(listenerCount()).toBe(0);
});

test('the premise: happy-dom gives an iframe in the document no window', () => {
  fake.uninstall();
  const iframe = document.body.appendChild(document.createElement('iframe'));
  expect(iframe.contentWindow).toBeNull();
  fake = installFakePlatform();
  expect(iframe.contentWindow).not.toBeNull();
  iframe.remove();
  expect(iframe.contentWindow).toBeNull();
});

test('ready, events to the handlers, the actions the SDK posted', async () => {
  const onDrilldown = vi.fn();
  const h = dashboard({ colorScheme: 'dark', onDrilldown });
  const embed = await fake.ready();
  expect(h.getState().status).toBe('ready');
  expect(embed.iframe).toBe(h.iframe);
  await embed.emit('drilldown', { member: 'orders.count', value: 3 });
  expect(onDrilldown).toHaveBeenCalledWith({ member: 'orders.count', value: 3 }, expect.anything());
  h.refresh();
  expect(embed.actions).toEqual([
    { type: 'set-color-scheme', payload: { scheme: 'dark' } },
    { type: 'refresh', payload: {} },
  ]);
});

test('a reload is the same embed with a new iframe and session; a fatal error without retries is the error state', async () => {
  const h = dashboard({ retry: false });
  const embed = await fake.ready();
  void h.reload();
  expect(await fake.ready()).toBe(embed);
  expect(embed.sessions).toHaveLength(2);
  await embed.fail('session expired');
  expect(h.error).toMatchObject({ code: 'fatal', message: expect.stringContaining('session expired') });
});

test('two embeds: an event of one never reaches the other; destroy unmounts', async () => {
  const one = vi.fn();
  const two = vi.fn();
  dashboard({ onDrilldown: one });
  const chat = embedChat({ container: '#d', baseUrl: BASE, session: fake.createSession(), onEvent: two });
  handles.push(chat);
  await fake.ready();
  await fake.ready();
  const [sales, assistant] = ['dashboard', 'chat'].map((surface) => fake.embeds.find((embed) => embed.surface == surface)!);
  await sales!.emit('drilldown', { member: 'orders.count' });
  expect(one).toHaveBeenCalledTimes(1);
  expect(two).toHaveBeenCalledTimes(1); // (its own ready)
  chat.destroy();
  expect(assistant!.mounted).toBe(false);
});
