import type { createHostState } from './hostState';
import type { createStatus } from './status';
import type { ActionMessage } from './protocol';

/*
 * How one embed's actions go out: to the current frame's window, at the tenant origin only
 * (never `'*'`), and only once it is ready. Before that, an action that sets kept state is kept
 * (hostState.ts brings every new frame back to it at `ready`), any other waits in order.
 */

/**
 * Creates the sender of one embed.
 * @param status the embed's status (actions go out once it is ready)
 * @param target the current frame's window and the tenant origin
 */
export function createSender(
  host: ReturnType<typeof createHostState>,
  status: ReturnType<typeof createStatus>,
  target: () => [Window, string],
  log: (...args: unknown[]) => void,
) {
  const post = (message: ActionMessage) => {
    message.timestamp = Date.now();
    log('action', message.type);
    const [window, origin] = target();
    window.postMessage(message, origin);
  };
  return {
    post,
    /** Sends a validated action now, or keeps or holds it until `ready`; `kept` when it already set kept state. */
    dispatch: (message: ActionMessage, kept = host.record(message)) =>
      status.get().status == 'ready' ? post(message) : kept || host.push(message),
  };
}
