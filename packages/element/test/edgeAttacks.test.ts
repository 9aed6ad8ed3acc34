import { afterEach, expect, test, vi } from 'vitest';
import { listenerCount, parkedCount, releaseEmbeds, type PlatformDashboardElement } from '../src/index';
import { withMoveBefore } from '../../core/test/helpers';

/*
 * What a real page's first week does to the elements, found by the attack of h/attack (round 2).
 */

const TENANT = 'https://tenant.example';
let restore: (() => void) | undefined;
afterEach(async () => {
  document.body.innerHTML = '';
  releaseEmbeds();
  restore?.();
  await new Promise((r) => setTimeout(r, 0));
  expect(listenerCount()).toBe(0);
});

test('an element with keep-alive replaced by another of its name in one script (a list re-rendered): the new one adopts the embed (was: a second embed, the first left parked, counted against the lot’s max)', async () => {
  restore = withMoveBefore().restore;
  let minted = 0;
  const session = () => `edge-${Date.now()}-${++minted}`;
  const make = () => {
    const el = document.createElement('platform-dashboard') as PlatformDashboardElement;
    el.setAttribute('base-url', TENANT);
    el.setAttribute('public-id', 'p1');
    el.setAttribute('keep-alive', '');
    el.session = session;
    return el;
  };
  const first = document.body.appendChild(make());
  await vi.waitFor(() => expect(first.handle?.iframe).toBeTruthy());
  const handle = first.handle;
  const second = make();
  first.replaceWith(second);
  await vi.waitFor(() => expect(second.handle).toBeTruthy());
  await new Promise((r) => setTimeout(r, 0));
  expect(second.handle).toBe(handle);
  // (Removed, the first element's frame lost its document: the embed loads again where it is adopted.)
  expect(minted).toBe(2);
  expect(document.querySelectorAll('iframe')).toHaveLength(1);
  expect(parkedCount()).toBe(0);
});
