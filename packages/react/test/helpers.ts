import { vi } from 'vitest';
import type { EventName } from '@platform-embed/core';

export const BASE = 'https://tenant.example';

const payloads: Record<EventName, Record<string, unknown>> = {
  ready: { embedTenant: null, deploymentId: 7, mode: 'signed', surface: 'dashboard' },
  view: { surface: 'dashboard', path: '/d/sales' },
  navigate: { path: '/d/costs', previousPath: '/d/sales' },
  'dashboard-loaded': { widgetCount: 4, loadDurationMs: 812 },
  download: { format: 'csv', target: 'widget', widgetId: 'w1', rowCount: 10 },
  drilldown: { member: 'orders.revenue', value: 42 },
  'ai-query': { query: 'top customers', status: 'completed', chatId: 'c1' },
  error: { message: 'widget failed', fatal: false },
};

/** A valid payload of each event (the catalog's shapes). */
export const payload = (name: EventName): Record<string, unknown> => ({ ...payloads[name] });

/** Posts an event as the embed in `iframe` would (right source and origin unless overridden). */
export function emit(iframe: HTMLIFrameElement, type: string, data: Record<string, unknown>, origin = BASE): void {
  window.dispatchEvent(
    new MessageEvent('message', {
      origin,
      source: iframe.contentWindow,
      data: {
        source: 'platform-embed',
        direction: 'event',
        type: `platform:event:${type}`,
        timestamp: Date.now(),
        surface: 'dashboard',
        payload: data,
      },
    }),
  );
}

export const iframes = (): HTMLIFrameElement[] => [...document.querySelectorAll('iframe')];

/** Lets the core's deferred session call and the session promise settle. */
export const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
};

// Session ids are single-use across the whole page (the core remembers them), so every
// test needs ids of its own.
let page = 0;
/** A session id never used before in this test file. */
export const freshId = (): string => `id${++page}`;
/** A session function minting `<prefix>1`, `<prefix>2`, ...; `id(n)` is the n-th id it returns. */
export const mintSessions = () => {
  const prefix = `p${++page}-`;
  let n = 0;
  return Object.assign(
    vi.fn(async () => `${prefix}${++n}`),
    { id: (k: number) => `${prefix}${k}` },
  );
};
