import { defineComponent, h } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import { afterEach, expect } from 'vitest';
import { listenerCount, type EmbedHandle } from '@platform-embed/core';
import { PlatformDashboard } from '../src/index';
import { behaviourTable } from '../../core/test/behaviour';
import { settle } from '../../core/test/helpers';

// The same table as the core's, through props (handlers as `on<Event>` listeners).
let wrapper: VueWrapper | undefined;

afterEach(async () => {
  wrapper?.unmount();
  wrapper = undefined;
  await settle();
  expect(listenerCount()).toBe(0);
});

// The component is shown and removed by its parent (`v-if`), as a route would: Vue unmounts it
// inside a patch. (Test Utils' own unmount() of Vue 3.5 takes the DOM away before the app unmounts.)
const Host = defineComponent({
  props: { show: Boolean, options: { type: Object, required: true } },
  setup: (props) => () => (props.show ? h(PlatformDashboard as never, { ref: 'embed', ...props.options }) : null),
});
const embedRef = () => (wrapper!.vm.$refs as { embed?: { embed: EmbedHandle<'dashboard'> } }).embed!;

behaviourTable({
  name: 'vue',
  async mount(options) {
    if (wrapper) await wrapper.setProps({ show: true, options });
    else wrapper = mount(Host, { props: { show: true, options }, attachTo: document.body });
    await settle();
  },
  async update(options) {
    await wrapper!.setProps({ options });
    await settle();
  },
  handle: () => embedRef().embed,
  async unmount() {
    await wrapper!.setProps({ show: false });
    await settle();
  },
});
