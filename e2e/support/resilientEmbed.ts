import { startStaticServer, type RunningServer } from './staticServer';

/**
 * The fake embed of `fakeEmbed.ts` plus what the resilience tests drive from Playwright
 * (`frame.evaluate`): `viewerNavigate(path)` posts a `navigate` event as if the viewer had moved
 * inside the embed, and `fatal(message)` posts a fatal `error` event (an expired session, say).
 * Every action from the host is kept in `window.received` ("<action> <payload JSON>"); a
 * `navigate` action is answered with a `navigate` event, as the platform does.
 */
export const resilientEmbedPage = (hostOrigin: string): string => `<!doctype html><title>embed</title><script>
  const HOST = ${JSON.stringify(hostOrigin)};
  const post = (type, payload) => parent.postMessage({ source: 'platform-embed', direction: 'event', type: 'platform:event:' + type, payload, timestamp: Date.now(), surface: 'dashboard' }, HOST);
  window.received = [];
  addEventListener('message', (e) => {
    if (e.origin !== HOST || e.source !== parent) return;
    received.push(e.data.type.replace('platform:action:', '') + ' ' + JSON.stringify(e.data.payload));
    if (e.data.type === 'platform:action:navigate') post('navigate', { path: e.data.payload.path });
  });
  window.viewerNavigate = (path) => post('navigate', { path });
  window.fatal = (message) => post('error', { message, name: 'SessionError', fatal: true });
  post('ready', { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard', publicId: location.pathname.split('/').pop() });
</script>`;

/** Serves {@link resilientEmbedPage} at `/embed/dashboard/*` on `localhost`; `hostOrigin` is read per request. */
export const startResilientEmbed = (hostOrigin: () => string): Promise<RunningServer> =>
  startStaticServer({
    host: 'localhost',
    routes: (req, res) => {
      if (!req.url?.startsWith('/embed/dashboard/')) return false;
      res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' });
      res.end(resilientEmbedPage(hostOrigin()));
      return true;
    },
  });
