import { afterEach, beforeEach, expect, vi } from 'vitest';
import { configureParking, createBinding, listenerCount, parkedCount, type EmbedBinding, type EmbedHandle } from '../src/index';
import * as helpers from './helpers';
import { BASE, READY, deliver, envelope, flush } from './helpers';

/*
 * What the tests of the page's lot share (keepAlive.test.ts, lot.test.ts): components' bindings
 * and handles that end after each test, a lot emptied and its bounds put back, and no listener
 * left. `parkedCount` is checked too where `emptyLot` says so.
 */

/** The bindings and handles a test made: unmounted and destroyed after it. */
export const bindings: EmbedBinding[] = [];
export const handles: EmbedHandle[] = [];

/** jsdom has no moveBefore: adds one for the test (taken away after it); the moves it made. */
export const withMoveBefore = () => helpers.withMoveBefore().moves;

/** A dashboard component's binding, ended after the test. */
export const binding = () => {
  const b = createBinding<'dashboard'>();
  bindings.push(b as EmbedBinding);
  // (Valid options: mount returns the controller.)
  return b as Omit<typeof b, 'mount'> & { mount: (...args: Parameters<typeof b.mount>) => EmbedHandle<'dashboard'> };
};
/** A dashboard's options, as a binding gets them. */
export const options = (extra: Record<string, unknown> = {}) => ({
  surface: 'dashboard' as const,
  baseUrl: BASE,
  publicId: 'sales',
  ...extra,
});
/** A container in the page (under display:none when `hidden`). */
export const box = (id: string, hidden = false) => {
  const div = document.createElement('div');
  div.id = id;
  if (hidden) div.style.display = 'none';
  document.body.append(div);
  return div;
};
/** The frame of `h` says `ready` (from `win`: the window it had, when a test moved it). */
export const ready = (h: EmbedHandle, win = h.iframe!.contentWindow) => deliver(envelope('ready', READY), win);
export const tick = () => new Promise((r) => setTimeout(r, 0));

/** Registers the file's hooks: an empty page before each test; after it, every embed ended and the lot empty. */
export function useLot({ emptyLot = false } = {}): void {
  beforeEach(() => {
    document.body.innerHTML = '';
  });
  afterEach(async () => {
    delete (Element.prototype as { moveBefore?: unknown }).moveBefore;
    for (const b of bindings.splice(0)) b.unmount();
    for (const h of handles.splice(0)) h.destroy();
    await flush();
    // Whatever a test left parked goes, so the next test starts with an empty lot.
    configureParking({ max: 0 });
    configureParking({ max: 3, idle: 300000 });
    vi.useRealTimers();
    vi.restoreAllMocks();
    if (emptyLot) await tick();
    expect(listenerCount()).toBe(0);
    if (emptyLot) expect(parkedCount()).toBe(0);
  });
}
