/* global parent, location, HOST */
// The embed side, served from the embed origin: it says `ready` as soon as it runs, and on a
// `navigate` action to `/blast/<n>` it posts <n> valid `drilldown` events as fast as it can,
// each a complete envelope built fresh (as a real embed would), to the exact host origin.
const publicId = decodeURIComponent(location.pathname.split('/').pop());
const post = (type, payload) =>
  parent.postMessage(
    { source: 'platform-embed', direction: 'event', type: 'platform:event:' + type, payload, timestamp: Date.now(), surface: 'dashboard' },
    HOST,
  );

window.addEventListener('message', (event) => {
  if (event.origin !== HOST || event.source !== parent) return;
  const data = event.data;
  if (!data || data.source !== 'platform-embed' || data.direction !== 'action' || data.type !== 'platform:action:navigate') return;
  const blast = /^\/blast\/(\d+)$/.exec(data.payload.path);
  if (!blast) return;
  for (let i = 0, n = Number(blast[1]); i < n; i++)
    post('drilldown', { member: 'orders.total_revenue', value: 'completed', widgetId: 'w-' + (i % 12) });
});

post('ready', { embedTenant: 'acme', deploymentId: 42, mode: 'signed', surface: 'dashboard', publicId });
