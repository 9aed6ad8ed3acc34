import { vi, type MockInstance } from 'vitest';
import { EmbedError, type EventName } from '../src/index';

/** The tenant origin every controller test trusts. */
export const BASE = 'https://tenant.example';

/** A valid `ready` payload of a signed dashboard. */
export const READY = { embedTenant: 'acme', deploymentId: 7, mode: 'signed', surface: 'dashboard' } as const;

/** A raw event envelope as the embed would post it; `extra` overrides envelope fields. */
export function envelope(name: string, payload: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    source: 'platform-embed',
    direction: 'event',
    type: `platform:event:${name}`,
    payload,
    timestamp: 1700000000000,
    surface: 'dashboard',
    ...extra,
  };
}

/** Dispatches a message on the page as a frame would post it (source and origin under the test's control). */
export function deliver(data: unknown, source: Window | null | undefined, origin = BASE): MessageEvent {
  const event = new MessageEvent('message', { origin, source: source ?? null, data });
  window.dispatchEvent(event);
  return event;
}

/** A spy on what the SDK posts to a frame's window. */
export type PostSpy = MockInstance<(message: unknown, targetOrigin: string) => void>;
/** Spies on `win.postMessage`. */
export const spyPost = (win: Window): PostSpy => vi.spyOn(win, 'postMessage') as unknown as PostSpy;

/** Runs `fn` and returns what it threw; fails the test when it does not throw. */
export function thrown(fn: () => unknown): EmbedError {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof EmbedError)) throw new Error(`expected an EmbedError, got ${String(e)}`, { cause: e });
    return e;
  }
  throw new Error('expected the call to throw');
}

/** Lets pending promise callbacks run (the controller yields a few microtasks before it mounts). */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

// ---- Shared with the framework bindings' tests (React, Vue, element) ----

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
    new MessageEvent('message', { origin, source: iframe.contentWindow, data: envelope(type, data, { timestamp: Date.now() }) }),
  );
}

/** The iframes in the document. */
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

/**
 * A fake MessageEvent whose `data` reads are counted, to pass straight to the page listener
 * (so a throw is seen, and so is any read of data from a sender that is not trusted).
 */
export function fakeEvent(source: unknown, origin: string, data: unknown) {
  const reads = { data: 0 };
  const event = {
    source,
    origin,
    get data() {
      reads.data++;
      return data;
    },
  } as unknown as MessageEvent;
  return { event, reads };
}

/**
 * Gives jsdom a `moveBefore` (it has none) for the duration of a test; returns the moves and a
 * way to take it away. jsdom gives a moved iframe a new window, where a real move keeps the
 * document: the moved iframe's `contentWindow` stays the window it had (which the SDK still
 * routes; tests post from it). Like the browser's, it throws for a move between a document and a
 * detached tree.
 */
export function withMoveBefore(): { moves: [Element, Node][]; restore(): void } {
  const moves: [Element, Node][] = [];
  Object.defineProperty(Element.prototype, 'moveBefore', {
    configurable: true,
    value(this: Element, node: Node, child: Node | null) {
      // As the browser's: only within one tree (a move into a detached element throws).
      if (this.getRootNode() != node.getRootNode()) throw new DOMException('moveBefore across trees', 'HierarchyRequestError');
      moves.push([this, node]);
      // jsdom gives a moved iframe a new window: the one it had stays, as the browser keeps it.
      const frames = node instanceof HTMLIFrameElement ? [node] : node instanceof Element ? [...node.querySelectorAll('iframe')] : [];
      const windows = frames.map((frame) => frame.contentWindow);
      this.insertBefore(node, child);
      // (Out of the document, as the browser's, it has none.)
      frames.forEach((frame, i) =>
        Object.defineProperty(frame, 'contentWindow', { configurable: true, get: () => (frame.isConnected ? windows[i] : null) }),
      );
    },
  });
  return { moves, restore: () => void delete (Element.prototype as { moveBefore?: unknown }).moveBefore };
}
