/* global parent, location, HOST */
// The embed side of the resilience benchmarks, served from the embed origin: it says `ready` as
// soon as it runs and answers a `navigate` action with a `navigate` event (as the platform
// does). Two test hooks, posted by the host page: `{ bench: 'viewer-navigate', path }` posts a
// `navigate` event as if the viewer had moved inside the embed, and `{ bench: 'fatal' }` posts a
// fatal `error` event, as the platform does when the session expired.
const publicId = decodeURIComponent(location.pathname.split('/').pop());
const post = (type, payload) =>
  parent.postMessage(
    { source: 'platform-embed', direction: 'event', type: 'platform:event:' + type, payload, timestamp: Date.now(), surface: 'dashboard' },
    HOST,
  );

window.addEventListener('message', (event) => {
  if (event.origin !== HOST || event.source !== parent) return;
  const data = event.data;
  if (data?.bench === 'viewer-navigate') post('navigate', { path: data.path });
  else if (data?.bench === 'fatal') post('error', { message: 'session expired', name: 'SessionError', fatal: true });
  else if (data?.source === 'platform-embed' && data.type === 'platform:action:navigate') post('navigate', { path: data.payload.path });
});

post('ready', { embedTenant: 'acme', deploymentId: 42, mode: 'signed', surface: 'dashboard', publicId });
