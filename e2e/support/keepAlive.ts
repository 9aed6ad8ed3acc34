import { expect, type Frame, type Page, type Request } from '@playwright/test';

// What the keep-alive specs watch in a real page, besides the app itself: which timers and
// MutationObservers are pending, how long an entered route takes to show its embed ready, the
// page's `message` listeners (CDP), the embed's frame document (a marker set on its window), and
// the embed pages loaded.

/** A timer still pending in the host page: its delay, and the stack that created it. */
export interface PendingTimer {
  delay: number;
  stack: string;
}

/** One entry into a route: from the click on a link until its embed showed `ready`, sampled at every animation frame. */
export interface RouteEntry {
  /** The link's `data-testid`. */
  link: string;
  /** Milliseconds from the click until the first frame with the embed ready; `null` while it is not. */
  readyAfterMs: number | null;
  /** Animation frames drawn before that one. */
  framesBeforeReady: number;
  /** Frames drawn meanwhile with the loading UI (`aria-busy="true"`) in the page. */
  busyFrames: number;
  /** Frames drawn meanwhile with an error UI (`role="alert"`) in the page. */
  errorFrames: number;
}

/** What {@link watchPage} installs in the page, as `window.kaWatch`. */
interface Watch {
  timers: Map<number, PendingTimer>;
  observers: Map<MutationObserver, string>;
  entries: (RouteEntry & { at: number })[];
}

/**
 * Installed before the page's own scripts (`page.addInitScript`): counts the pending timers
 * (`setTimeout` not yet run nor cleared) and the MutationObservers observing that the page's
 * scripts made, with the stack of each, and samples each route entry at every animation frame. The embed's status is
 * read from the app's `window.ka.current` (the handle its ref holds).
 */
function watch() {
  if (window !== window.top) return;
  const state: Watch = { timers: new Map(), observers: new Map(), entries: [] };
  // Only what the page's own scripts (the app's bundle, the SDK in it) make: Playwright's injected
  // script observes the document too, from no URL of the page.
  const fromPage = (stack: string) => stack.includes(`${location.origin}/`);
  (window as unknown as { kaWatch: Watch }).kaWatch = state;

  const nativeSet = window.setTimeout.bind(window);
  const nativeClear = window.clearTimeout.bind(window);
  window.setTimeout = ((handler: TimerHandler, delay?: number, ...args: unknown[]) => {
    const id: number = nativeSet(
      (...callArgs: unknown[]) => {
        state.timers.delete(id);
        if (typeof handler === 'function') handler(...callArgs);
      },
      delay,
      ...args,
    );
    const stack = new Error().stack ?? '';
    if (fromPage(stack)) state.timers.set(id, { delay: Number(delay) || 0, stack });
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined) state.timers.delete(id);
    nativeClear(id);
  }) as typeof window.clearTimeout;

  const { observe, disconnect } = MutationObserver.prototype;
  MutationObserver.prototype.observe = function (this: MutationObserver, ...args: Parameters<MutationObserver['observe']>) {
    const stack = new Error().stack ?? '';
    if (fromPage(stack)) state.observers.set(this, stack);
    return observe.apply(this, args);
  };
  MutationObserver.prototype.disconnect = function (this: MutationObserver) {
    state.observers.delete(this);
    return disconnect.call(this);
  };

  type App = { current: { getState(): { status: string } } | null } | undefined;
  let entry: (RouteEntry & { at: number }) | undefined;
  document.addEventListener(
    'click',
    (event) => {
      const link = (event.target as Element).closest?.('a[data-testid]');
      if (!link) return;
      entry = {
        link: link.getAttribute('data-testid')!,
        at: performance.now(),
        readyAfterMs: null,
        framesBeforeReady: 0,
        busyFrames: 0,
        errorFrames: 0,
      };
      state.entries.push(entry);
    },
    true,
  );
  const sample = () => {
    if (entry && entry.readyAfterMs === null) {
      const app = (window as unknown as { ka: App }).ka;
      const iframe = document.querySelector('[data-platform-embed] iframe');
      if (app?.current?.getState().status === 'ready' && iframe) entry.readyAfterMs = performance.now() - entry.at;
      else {
        entry.framesBeforeReady++;
        if (document.querySelector('[aria-busy="true"]')) entry.busyFrames++;
        if (document.querySelector('[role="alert"]')) entry.errorFrames++;
      }
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}

/** Installs {@link watch} in `page`; call before `page.goto`. */
export const watchPage = (page: Page) => page.addInitScript(watch);

/** A page as Safari has it today: no `moveBefore` anywhere (installed before the app's scripts). */
export const withoutMoveBefore = (page: Page) =>
  page.addInitScript(() => {
    for (const type of [Element, Document, DocumentFragment]) delete (type.prototype as { moveBefore?: unknown }).moveBefore;
  });

/** The timers pending in the page now. */
export const pendingTimers = (page: Page): Promise<PendingTimer[]> =>
  page.evaluate(() => [...(window as unknown as { kaWatch: Watch }).kaWatch.timers.values()]);

/** The MutationObservers observing now: the stack that made each observe. */
export const observers = (page: Page): Promise<string[]> =>
  page.evaluate(() => [...(window as unknown as { kaWatch: Watch }).kaWatch.observers.values()]);

/** The route entries sampled so far. */
export const routeEntries = (page: Page): Promise<RouteEntry[]> =>
  page.evaluate(() => (window as unknown as { kaWatch: Watch }).kaWatch.entries.map(({ at: _at, ...entry }) => entry));

/** Clicks the link with `testId` and waits until the route's embed showed `ready`; returns the entry. */
export async function enter(page: Page, testId: string): Promise<RouteEntry> {
  const before = (await routeEntries(page)).length;
  await page.getByTestId(testId).click();
  let entry: RouteEntry | undefined;
  await expect
    .poll(async () => (entry = (await routeEntries(page))[before])?.readyAfterMs ?? null, {
      message: `the embed of ${testId}'s route did not show ready`,
      timeout: 20_000,
    })
    .not.toBeNull();
  return entry!;
}

/** The `message` listeners on the page's `window`, as Chrome DevTools counts them (any script's). */
export async function messageListeners(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
    return listeners.filter((listener) => listener.type === 'message').length;
  } finally {
    await cdp.detach();
  }
}

/** The document of the embed's iframe in `selector` (the page's only one by default). */
export async function embedFrame(page: Page, selector = '[data-platform-embed] iframe'): Promise<Frame> {
  const iframe = page.locator(selector);
  await expect(iframe).toHaveCount(1);
  const frame = await (await iframe.elementHandle())!.contentFrame();
  if (!frame) throw new Error(`${selector} has no frame`);
  return frame;
}

/** Sets `marker` on the window of the embed's document (a cross-origin frame: Playwright evaluates inside it). */
export const markDocument = (frame: Frame, marker: string) =>
  frame.evaluate((value) => void ((window as unknown as { kaMarker: string }).kaMarker = value), marker);

/** The marker of the embed's document, `undefined` in a document loaded since. */
export const markerOf = (frame: Frame): Promise<string | undefined> =>
  frame.evaluate(() => (window as unknown as { kaMarker?: string }).kaMarker);

/** Records, inside the embed's document, the type of every message it receives from now on. */
export const recordActions = (frame: Frame) =>
  frame.evaluate(() => {
    const received: string[] = [];
    (window as unknown as { kaReceived: string[] }).kaReceived = received;
    window.addEventListener('message', (event) => received.push(String((event.data as { type?: unknown })?.type)));
  });

/** The message types the embed's document received since {@link recordActions}. */
export const receivedActions = (frame: Frame): Promise<string[]> =>
  frame.evaluate(() => (window as unknown as { kaReceived?: string[] }).kaReceived ?? []);

/** Counts the embed pages `page` loads from `origin` (every document request of a frame). */
export function countEmbedLoads(page: Page, origin: string): { readonly count: number } {
  const loads = { count: 0 };
  page.on('request', (request: Request) => {
    if (request.isNavigationRequest() && request.url().startsWith(`${origin}/embed/`)) loads.count++;
  });
  return loads;
}
