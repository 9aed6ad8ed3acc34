import type { EmbedHandle } from '../src/index';

/** The tenant the element tests embed from. */
export const TENANT = 'https://tenant.example';
/** A `ready` payload of a signed dashboard. */
export const READY = { embedTenant: null, deploymentId: 1, mode: 'signed', surface: 'dashboard' };

/** Posts an event as the iframe of `from` (an element, or a handle with its surface) would. */
export function fromFrame(
  from: { handle: EmbedHandle | null | undefined; surface: string },
  type: string,
  payload: object,
  origin = TENANT,
) {
  window.dispatchEvent(
    new MessageEvent('message', {
      origin,
      source: from.handle!.iframe!.contentWindow,
      data: { source: 'platform-embed', direction: 'event', type: 'platform:event:' + type, payload, timestamp: 5, surface: from.surface },
    }),
  );
}
