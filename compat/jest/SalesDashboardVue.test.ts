import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, expect, jest, test } from '@jest/globals';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import SalesDashboard from './SalesDashboard.vue';

/* The README's Vue unit test under Jest in CommonJS (Vitest runs the same one: packages/vue/test/hostApp.test.ts). */

let fake: FakePlatform;
let wrapper: VueWrapper | undefined;
beforeEach(() => {
  fake = installFakePlatform();
  // The component asks its backend for a session: answer with a fresh one each time.
  globalThis.fetch = jest.fn(async () => ({ json: async () => ({ sessionId: fake.createSession() }) })) as unknown as typeof fetch;
});
afterEach(() => {
  wrapper?.unmount();
  fake.uninstall();
  jest.restoreAllMocks();
});

test('shows what the viewer drilled into', async () => {
  wrapper = mount(SalesDashboard, { props: { dark: true }, attachTo: document.body });
  expect(wrapper.text()).toContain('Loading the dashboard…');

  const embed = await fake.ready();
  expect(wrapper.text()).not.toContain('Loading the dashboard…');
  expect(embed.actions).toContainEqual({ type: 'set-color-scheme', payload: { scheme: 'dark' } });

  await embed.emit('drilldown', { member: 'orders.count' });
  expect(wrapper.text()).toContain('Drilled into orders.count');
});

test('says why the dashboard failed, and tries again', async () => {
  wrapper = mount(SalesDashboard, { attachTo: document.body });
  const embed = await fake.ready();
  await embed.fail('session expired');
  // The SDK retries a failed load with a fresh session, 3 times with backoff (3.5 s at most in all).
  for (let i = 0; i < 3; i++) await (await fake.next()).fail('session expired');

  expect(wrapper.get('[role="alert"]').text()).toContain('session expired');
  await wrapper.get('button').trigger('click');
  await fake.ready();
  expect(wrapper.find('[role="alert"]').exists()).toBe(false);
  expect(embed.sessions).toHaveLength(5);
}, 10_000);
