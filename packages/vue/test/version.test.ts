import { createSSRApp, defineComponent, h, ref, version } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { mount } from '@vue/test-utils';
import { expect, inject, test } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Vue line the project runs, e.g. `3.3.` (vitest.config.ts). */
    vue: string;
  }
}

const Version = defineComponent(() => {
  const v = ref(version);
  return () => h('p', v.value);
});

test('the project runs the Vue line it is named after', () => {
  expect(version.startsWith(inject('vue')), version).toBe(true);
});

test('@vue/test-utils mounts with the same Vue copy', () => {
  const w = mount(Version);
  expect(w.vm.$.appContext.app.version).toBe(version);
  expect(w.html()).toBe(`<p>${version}</p>`);
  w.unmount();
});

test('vue/server-renderer renders apps of the same Vue copy', async () => {
  const app = createSSRApp(Version);
  expect(app.version).toBe(version);
  expect(await renderToString(app)).toBe(`<p>${version}</p>`);
});
