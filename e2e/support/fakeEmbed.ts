import { startStaticServer, type RunningServer } from './staticServer';

/**
 * A minimal embed that speaks the protocol: it posts `ready` (with the public id of its
 * path) to the exact host origin, records every action from its parent on that origin in
 * `document.body.dataset.received`, and answers `navigate` with a `navigate` event.
 */
export const fakeEmbedPage = (hostOrigin: string): string => `<!doctype html><title>embed</title><script>
  const post = (type, payload) => parent.postMessage({ source: 'platform-embed', direction: 'event', type: 'platform:event:' + type, payload, timestamp: Date.now(), surface: 'dashboard' }, ${JSON.stringify(hostOrigin)});
  const received = [];
  addEventListener('message', (e) => {
    if (e.origin !== ${JSON.stringify(hostOrigin)} || e.source !== parent) return;
    received.push(e.data.type.replace('platform:action:', '') + ' ' + JSON.stringify(e.data.payload));
    document.body.dataset.received = JSON.stringify(received);
    if (e.data.type === 'platform:action:navigate') post('navigate', { path: e.data.payload.path });
  });
  post('ready', { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard', publicId: location.pathname.split('/').pop() });
</script>`;

/** Serves {@link fakeEmbedPage} at `/embed/dashboard/*` on `localhost`; `hostOrigin` is read per request. */
export const startFakeEmbed = (hostOrigin: () => string): Promise<RunningServer> =>
  startStaticServer({
    host: 'localhost',
    routes: (req, res) => {
      if (!req.url?.startsWith('/embed/dashboard/')) return false;
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(fakeEmbedPage(hostOrigin()));
      return true;
    },
  });
