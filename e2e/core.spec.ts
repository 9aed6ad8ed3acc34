import { expect, test } from '@playwright/test';
import { resolve } from 'node:path';
import { startFakeEmbed } from './support/fakeEmbed';
import { startStaticServer, type RunningServer } from './support/staticServer';

// The core's built ESM, loaded by a host page on 127.0.0.1 that embeds a frame served from
// localhost (another origin and another site), plus a hostile frame from a third origin.
const coreDist = resolve(import.meta.dirname, '../packages/core/dist');

const hostilePage = (hostOrigin: string) => `<!doctype html><script>
  const m = (type, payload) => ({ source: 'platform-embed', direction: 'event', type: 'platform:event:' + type, payload, timestamp: Date.now(), surface: 'dashboard' });
  // Perfect envelopes, posted again and again for as long as the test runs.
  setInterval(() => {
    parent.postMessage(m('ready', { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' }), ${JSON.stringify(hostOrigin)});
    parent.postMessage(m('navigate', { path: '/hostile' }), '*');
  }, 20);
</script>`;

let host: RunningServer;
let embed: RunningServer;
let hostile: RunningServer;

test.beforeAll(async () => {
  host = await startStaticServer({ host: '127.0.0.1', mounts: { '/core/': coreDist } });
  embed = await startFakeEmbed(() => host.origin);
  hostile = await startStaticServer({
    host: '127.0.0.1',
    routes: (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(hostilePage(host.origin));
      return true;
    },
  });
});
test.afterAll(async () => {
  await Promise.all([host?.close(), embed?.close(), hostile?.close()]);
});

test('core across two real origins: ready, queued action, event back; a hostile third origin changes nothing', async ({ page }) => {
  await page.goto(`${host.origin}/core/index.mjs`); // any page of the host origin
  await page.setContent(`<div id="c" style="width:400px;height:300px"></div><iframe id="hostile" src="${hostile.origin}/x"></iframe>`, {
    waitUntil: 'load',
  });
  const result = await page.evaluate(
    async ({ base }) => {
      const coreUrl = '/core/index.mjs'; // served by the host origin, imported in the page
      const { embedDashboard, listenerCount } = (await import(coreUrl)) as typeof import('@platform-embed/core');
      const log: string[] = [];
      const h = embedDashboard({ container: '#c', baseUrl: base, publicId: 'p1', session: async () => 'one-time-session' });
      h.on('*', (m) => log.push(m.type + ' ' + JSON.stringify((m.payload as { path?: string }).path ?? '')));
      h.navigate('/from-host');
      const ready = await h.ready;
      // The embed's answer to the queued navigate, waited for (a loaded machine may take more than
      // a few ms to pass it between the two processes); then 300 ms more for anything that should
      // not come (a second answer, the hostile frame's envelopes) to show up in the log.
      for (let i = 0; i < 500 && log.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      const out = { ready, log, src: h.iframe!.src, listeners: listenerCount() };
      h.destroy();
      return { ...out, after: listenerCount(), frames: document.querySelectorAll('#c iframe').length };
    },
    { base: embed.origin },
  );
  expect(result.ready).toMatchObject({ mode: 'signed', publicId: 'p1' });
  expect(result.src).toBe(`${embed.origin}/embed/dashboard/p1?session=one-time-session`);
  expect(result.log).toEqual(['platform:event:ready ""', 'platform:event:navigate "/from-host"']);
  expect(result.listeners).toBe(1);
  expect(result.after).toBe(0);
  expect(result.frames).toBe(0);
});
