import { afterEach, beforeEach, expect } from 'vitest';
import { embedDashboard, listenerCount, type EmbedHandle } from '../src/index';
import { behaviourTable, type Options } from './behaviour';
import { settle } from './helpers';

let handle: EmbedHandle<'dashboard'> | undefined;
beforeEach(() => {
  document.body.innerHTML = '<div id="c"></div>';
});
afterEach(() => {
  handle?.destroy();
  expect(listenerCount()).toBe(0);
});

behaviourTable({
  name: 'core',
  async mount(options: Options) {
    handle = embedDashboard({ container: '#c', ...(options as { baseUrl: string; publicId: string }) });
    await settle();
  },
  async update(options) {
    handle!.update(options);
  },
  handle: () => handle!,
  async unmount() {
    handle!.destroy();
  },
});
