// Browser entry of the React fixture: window.app drives it from the test, outside act().
import { version } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { listenerCount } from '@platform-embed/react';
import { counters, dashboard, tree, type AppProps } from './reactApp';

let root: Root | null = null;
let props: AppProps | null = null;

const app = {
  version,
  counters,
  listenerCount,
  handle: () => dashboard.current,
  mount(next: AppProps) {
    props = next;
    root = createRoot(document.getElementById('root')!);
    root.render(tree(props));
  },
  hydrate(next: AppProps) {
    props = next;
    root = hydrateRoot(document.getElementById('root')!, tree(props));
  },
  render(change: Partial<AppProps>) {
    props = { ...props!, ...change };
    root!.render(tree(props));
  },
  unmount() {
    root!.unmount();
    root = null;
  },
};
Object.assign(window, { app });
export type ReactFixture = typeof app;
