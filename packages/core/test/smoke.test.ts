import { expect, test, vi } from 'vitest';
import { embedDashboard, listenerCount } from '../src/index';

test('smoke: mount, ready, queued action flushed, destroy', async () => {
  document.body.innerHTML = '<div id="c"></div>';
  const session = vi.fn(async () => 'sess-1');
  const h = embedDashboard({ container: '#c', baseUrl: 'https://tenant.example', publicId: 'p1', session });
  h.setColorScheme('dark');
  await vi.waitFor(() => expect(h.iframe).not.toBeNull());
  expect(h.iframe!.src).toBe('https://tenant.example/embed/dashboard/p1?session=sess-1');
  const post = vi.spyOn(h.iframe!.contentWindow!, 'postMessage');
  const onReady = vi.fn();
  h.on('ready', onReady);
  window.dispatchEvent(new MessageEvent('message', {
    origin: 'https://tenant.example', source: h.iframe!.contentWindow,
    data: { source: 'platform-embed', direction: 'event', type: 'platform:event:ready', timestamp: 1, surface: 'dashboard', payload: { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' } },
  }));
  expect(onReady).toHaveBeenCalledOnce();
  expect(post).toHaveBeenCalledWith(expect.objectContaining({ type: 'platform:action:set-color-scheme', payload: { scheme: 'dark' } }), 'https://tenant.example');
  await expect(h.ready).resolves.toMatchObject({ mode: 'signed' });
  expect(listenerCount()).toBe(1);
  h.destroy();
  expect(listenerCount()).toBe(0);
  expect(document.querySelector('iframe')).toBeNull();
});
