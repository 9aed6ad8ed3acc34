// Browser entry of the Vue fixture: window.app drives it from the test.
import { createApp, createSSRApp, h, reactive, version, type App as VueApp } from 'vue';
import { listenerCount } from '@platform-embed/vue';
import { App, dashboard, type AppProps } from './vueApp';

let app: VueApp | null = null;
const props = reactive<Partial<AppProps>>({});
// A wrapper without markup of its own, so the hydrated tree is exactly the server-rendered one.
const Root = { render: () => h(App, props as AppProps) };

const fixture = {
  version,
  listenerCount,
  ref: () => dashboard.value,
  handle: () => dashboard.value?.embed ?? null,
  mount(initial: AppProps) {
    Object.assign(props, initial);
    app = createApp(Root);
    app.mount('#root');
  },
  hydrate(initial: AppProps) {
    Object.assign(props, initial);
    app = createSSRApp(Root);
    app.mount('#root');
  },
  render(change: Partial<AppProps>) {
    Object.assign(props, change);
  },
  unmount() {
    app!.unmount();
    app = null;
  },
};
Object.assign(window, { app: fixture });
export type VueFixture = typeof fixture;
