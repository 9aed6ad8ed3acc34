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
  await settle();
  expect(listenerCount()).toBe(0);
});

behaviourTable({
  name: 'vue',
  async mount(options) {
    wrapper = mount(PlatformDashboard, { props: options as never, attachTo: document.body });
    await settle();
  },
  async update(options) {
    await wrapper!.setProps(options as never);
    await settle();
  },
  handle: () => (wrapper!.vm as unknown as { embed: EmbedHandle<'dashboard'> }).embed,
  async unmount() {
    wrapper!.unmount();
    wrapper = undefined;
    await settle();
  },
});
