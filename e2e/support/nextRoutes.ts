import type { Frame, Page } from '@playwright/test';

// Leaving a Next.js route and coming back, as a viewer does: the host's links, timed in the page,
// and what proves an embed came through as it was (its frame's document, its loads, the page's
// message listeners). Used by next.spec.ts (the demo host, `next start`) and support/guides.ts
// (the frame document of every guide's app).

/** The document loads of embed pages (one per iframe load) on `platformOrigin`, in order. */
export function watchEmbedLoads(page: Page, platformOrigin: string): string[] {
  const loads: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'document' && url.origin === platformOrigin) loads.push(url.pathname);
  });
  return loads;
}

/**
 * The page's requests for a render of `pathname` on the server (its RSC payload fetched by a
 * navigation), prefetches aside: each one runs the page's server components again.
 */
export function watchRenders(page: Page, origin: string, pathname: string): string[] {
  const renders: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    const rsc = request.headers()['rsc'] === '1' || url.searchParams.has('_rsc');
    if (url.origin === origin && url.pathname === pathname && rsc && !request.headers()['next-router-prefetch']) renders.push(url.href);
  });
  return renders;
}

/** How long a navigation took to show its route, and the embed statuses seen once it showed. */
export interface Navigation {
  /** From the click to the first animation frame where `shown` is visible. */
  ms: number;
  /** The text of the `status` element at each frame `shown` was visible (with `status` given). */
  statuses: string[];
}

/**
 * Clicks the page's link to `href` and measures, in the page, the time until `shown` is visible
 * (checked at every animation frame), reading `status` meanwhile when given.
 */
export const navigate = (page: Page, href: string, shown: string, status?: string): Promise<Navigation> =>
  page.evaluate(
    async ({ href, shown, status }) => {
      const start = performance.now();
      const statuses = new Set<string>();
      document.querySelector<HTMLAnchorElement>(`nav a[href="${href}"]`)!.click();
      for (;;) {
        await new Promise(requestAnimationFrame);
        if (!document.querySelector(shown)?.checkVisibility()) continue;
        if (status) statuses.add(document.querySelector(status)?.textContent ?? '');
        return { ms: Math.round(performance.now() - start), statuses: [...statuses] };
      }
    },
    { href, shown, status },
  );

/** The frame of the embed page on `platformOrigin` (there is one). */
export const embedFrame = (page: Page, platformOrigin: string): Frame => {
  const frame = page.frames().find((candidate) => candidate.url().startsWith(platformOrigin));
  if (!frame) throw new Error(`no frame of ${platformOrigin} in the page`);
  return frame;
};

type Marked = { keptMarker?: string };

/** Leaves `marker` on the frame's window (a cross-origin frame: Playwright evaluates inside it). */
export const mark = (frame: Frame, marker: string) => frame.evaluate((value) => void ((window as Marked).keptMarker = value), marker);

/** The marker the frame's window holds: only the same document has it; a detached frame reads as `detached`. */
export const markOf = (frame: Frame): Promise<string | undefined> =>
  frame.isDetached() ? Promise.resolve('detached') : frame.evaluate(() => (window as Marked).keptMarker).catch(() => 'detached');

/** The `message` listeners of the page's window (the SDK adds one while any embed is live), read through the DevTools protocol. */
export async function messageListeners(page: Page): Promise<number> {
  const devtools = await page.context().newCDPSession(page);
  try {
    const { result } = await devtools.send('Runtime.evaluate', { expression: 'window' });
    const { listeners } = await devtools.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
    return listeners.filter((listener) => listener.type === 'message').length;
  } finally {
    await devtools.detach();
  }
}
