import { defineComponent, h, ref } from 'vue';
import { mount } from '@vue/test-utils';
import { afterEach, expect, test } from 'vitest';
import { listenerCount, parkedCount, releaseEmbeds, type EmbedHandle } from '@platform-embed/core';
import { PlatformDashboard } from '../src/index';
import { BASE, emit, iframes, mintSessions, payload, settle, withMoveBefore } from '../../core/test/helpers';

/*
 * What a real app's first week does to the Vue binding, found by the attack of h/attack (round 2).
 */

let restore: (() => void) | undefined;
afterEach(async () => {
  releaseEmbeds();
  restore?.();
  document.body.innerHTML = '';
  await settle();
  expect(listenerCount()).toBe(0);
});

test('a key change of a keepAlive dashboard (one patch: the old one unmounts, the new one mounts): the new one adopts the embed, no second session (was: a second session and frame, the first left parked)', async () => {
  restore = withMoveBefore().restore;
  const session = mintSessions();
  const key = ref('route-a');
  const handles = new Set<EmbedHandle>();
  const App = defineComponent({
    setup: () => () =>
      h(PlatformDashboard as never, {
        key: key.value,
        ref: (c: { embed?: EmbedHandle } | null) => void (c?.embed && handles.add(c.embed)),
        baseUrl: BASE,
        publicId: 'sales',
        session,
        keepAlive: true,
      }),
  });
  const wrapper = mount(App, { attachTo: document.body });
  await settle();
  const [iframe] = iframes();
  emit(iframe!, 'ready', payload('ready'));
  key.value = 'route-b';
  await settle();
  expect(session).toHaveBeenCalledTimes(1);
  expect(iframes()).toEqual([iframe]);
  expect(parkedCount()).toBe(0);
  wrapper.unmount();
});
