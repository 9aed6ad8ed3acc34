/* global parent, HOST */
// A frame of a foreign origin. `attack()` (called by the runner in this frame) posts a perfect
// envelope whose payload holds `count` objects to the host origin, then a small second message
// so that the host can tell the payload was delivered without reading any data.
window.attack = (count) => {
  const value = Array.from({ length: count }, (_, i) => ({ i }));
  const t0 = performance.now();
  parent.postMessage(
    {
      source: 'platform-embed',
      direction: 'event',
      type: 'platform:event:drilldown',
      payload: { member: 'orders.total_revenue', value },
      timestamp: Date.now(),
      surface: 'dashboard',
    },
    HOST,
  );
  parent.postMessage('posted', HOST);
  return { serializeMs: performance.now() - t0 };
};
