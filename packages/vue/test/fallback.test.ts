import { createSSRApp, defineComponent, h, nextTick } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import { PlatformDashboard } from '../src/index';

/* The opt-in loading and error UI of the components: the `#fallback` and `#error` slots. */

const BASE = 'https://acme.platform.example';
let fake: FakePlatform;
let wrappers: VueWrapper[] = [];
beforeEach(() => {
  fake = installFakePlatform();
});
afterEach(() => {
  wrappers.forEach((w) => w.unmount());
  wrappers = [];
  fake.uninstall();
});

const props = () => ({ baseUrl: BASE, publicId: 'sales', session: async () => fake.createSession(), retry: false as const });
const dashboard = (slots: Record<string, unknown> = {}, attrs: Record<string, unknown> = {}) => {
  const w = mount(PlatformDashboard, { props: props(), slots: slots as never, attrs, attachTo: document.body });
  wrappers.push(w);
  return w;
};

describe('#fallback and #error', () => {
  test('#error for a prop the component cannot use: its retry does nothing (nothing to reload), and throws nothing into Vue', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const errorHandler = vi.fn();
    const w = mount(PlatformDashboard, {
      props: { ...props(), colorScheme: 'purple' as 'dark' },
      slots: { error: ({ error, retry }: { error: Error; retry: () => void }) => h('button', { onClick: retry }, error.message) },
      attachTo: document.body,
      global: { config: { errorHandler } },
    });
    wrappers.push(w);
    await nextTick();
    await w.get('button').trigger('click');
    expect(errorHandler).not.toHaveBeenCalled();
    expect(w.get('[role=alert]').text()).toContain('"colorScheme" must be light|dark|auto (got "purple")');
    vi.restoreAllMocks();
  });

  test('without them nothing changes: no children but the iframe, no aria-busy, no style', async () => {
    const w = dashboard();
    await fake.ready();
    expect(w.element.getAttribute('aria-busy')).toBeNull();
    expect(w.element.getAttribute('style')).toBeNull();
    expect([...w.element.childNodes].map((c) => c.nodeName)).toEqual(['IFRAME']);
  });

  test('#fallback: shown over the container while loading, with aria-busy; gone once ready; focus stays put', async () => {
    const host = document.body.appendChild(document.createElement('button'));
    host.focus();
    const w = dashboard({ fallback: () => h('p', 'Loading sales…') }, { style: 'height: 300px' });
    expect(w.text()).toBe('Loading sales…');
    expect(w.attributes('aria-busy')).toBe('true');
    expect((w.element as HTMLElement).style.position).toBe('relative');
    expect((w.element as HTMLElement).style.height).toBe('300px');
    const embed = await fake.next();
    expect(w.text()).toBe('Loading sales…');
    await embed.ready();
    expect(w.text()).toBe('');
    expect(w.attributes('aria-busy')).toBeUndefined();
    expect(w.element.lastElementChild).toBe(embed.iframe);
    expect(document.activeElement).toBe(host);
    host.remove();
  });

  test('#error: the cause in a role="alert" region, with the slot props; retry reloads with a fresh session', async () => {
    const w = dashboard({
      fallback: () => 'Loading…',
      error: ({ error, retry }: { error: Error; retry: () => void }) => [
        h('p', error.message),
        h('button', { onClick: retry }, 'Try again'),
      ],
    });
    const embed = await fake.ready();
    await embed.fail('session expired');
    const alert = w.get('[role="alert"]');
    expect(alert.text()).toContain('the embed failed: session expired');
    expect(w.attributes('aria-busy')).toBeUndefined();
    await alert.get('button').trigger('click');
    expect(w.find('[role="alert"]').exists()).toBe(false);
    expect(w.text()).toBe('Loading…');
    expect(await fake.ready()).toBe(embed);
    expect(embed.sessions).toHaveLength(2);
    expect(w.text()).toBe('');
  });

  test('a template with #fallback and #error slots (the README example)', async () => {
    const Host = defineComponent({
      components: { PlatformDashboard },
      setup: () => ({ props: props() }),
      template: `
        <PlatformDashboard v-bind="props">
          <template #fallback><p>Loading…</p></template>
          <template #error="{ error, retry }"><p>{{ error.message }}</p><button @click="retry">Try again</button></template>
        </PlatformDashboard>`,
    });
    const w = mount(Host, { attachTo: document.body });
    wrappers.push(w);
    expect(w.text()).toBe('Loading…');
    await (await fake.ready()).fail();
    await nextTick();
    expect(w.get('[role="alert"] button').text()).toBe('Try again');
  });

  test('server HTML has the fallback and aria-busy, not the error UI', async () => {
    const error = vi.fn(() => h('p', 'failed'));
    const html = await renderToString(
      createSSRApp(() => h(PlatformDashboard, props(), { fallback: () => h('p', 'Loading sales…'), error })),
    );
    expect(html).toBe(
      '<div data-platform-embed="dashboard" aria-busy="true" style="position:relative">' +
        '<div style="position:absolute;inset:0"><p>Loading sales…</p></div></div>',
    );
    expect(error).not.toHaveBeenCalled();
  });
});
