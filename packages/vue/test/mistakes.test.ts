import { defineComponent, h, ref } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, expect } from 'vitest';
import { IDLE, listenerCount, type EmbedState } from '@platform-embed/core';
import { PlatformDashboard } from '../src/index';
import { mistakeTable, type MistakeDriver } from '../../core/test/mistakeTable';
import { nullTable } from '../../core/test/nullTable';
import { settle } from '../../core/test/helpers';

// The mistake table through props, in a host app with state of its own; `@error` as a listener.
let wrapper: VueWrapper | undefined;

const App = defineComponent({
  props: { options: { type: Object, required: true }, hear: Function },
  setup(props) {
    const clicks = ref(0);
    return () =>
      h('main', [
        h('button', { onClick: () => clicks.value++ }, `clicked ${clicks.value}`),
        h(
          PlatformDashboard as never,
          { ref: 'embed', ...props.options, ...(props.hear && { onError: props.hear }) },
          { error: ({ error }: { error: Error }) => h('p', { 'data-error-ui': '' }, error.message) },
        ),
      ]);
  },
});

afterEach(async () => {
  await settle();
  expect(listenerCount()).toBe(0);
});

const driver: MistakeDriver = {
  name: 'vue',
  async render(options, hear) {
    wrapper = mount(App, { props: { options, hear }, attachTo: document.body });
    await settle();
  },
  async update(options) {
    await wrapper!.setProps({ options });
    await settle();
  },
  async click() {
    await wrapper!.get('button').trigger('click');
    return wrapper!.get('button').text();
  },
  state: () => (wrapper?.vm.$refs as { embed?: { state: EmbedState } } | undefined)?.embed?.state ?? IDLE,
  errorUi: () => document.querySelector('[data-error-ui]')?.textContent ?? null,
  async unmount() {
    wrapper?.unmount();
    wrapper = undefined;
    await settle();
  },
};
mistakeTable(driver);
nullTable(driver);
