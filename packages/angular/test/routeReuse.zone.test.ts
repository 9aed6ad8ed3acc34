import { provideZoneChangeDetection } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { beforeEach, expect, test, vi } from 'vitest';
import { keepEmbeds } from '@platform-embed/angular/router';
import { emit, iframes, payload, withMoveBefore } from '../../core/test/helpers';
import { ReuseMarkedRoutes, app, dashboard, dashboardElement, go, payloads, restoreAfter, start, useRoutedApp } from './routedApp';

// Route reuse with zone.js (the `angular+zone.js` project loads it): the embed comes back after
// the render that follows the attach, as without.

useRoutedApp();
beforeEach(() => TestBed.configureTestingModule({ providers: [provideZoneChangeDetection()] }));

test('route reuse with keepEmbeds: left and entered again, the same iframe keeps its document; one session; a change made meanwhile is an action', async () => {
  restoreAfter(withMoveBefore().restore);
  start(keepEmbeds(new ReuseMarkedRoutes()));
  await go('/sales');
  const first = dashboard()!.handle()!;
  const iframe = iframes()[0]!;
  const win = iframe.contentWindow!;
  emit(iframe, 'ready', payload('ready'));
  const post = vi.spyOn(win, 'postMessage').mockImplementation(() => {});
  for (let round = 1; round <= 2; round++) {
    await go('/settings');
    expect(dashboard()).toBeUndefined();
    expect(iframe.isConnected).toBe(true);
    // (Entered again without a change too: nothing else renders the embed again.)
    if (round == 1) app.scheme.set('dark');
    await go('/sales');
    expect(dashboard()!.handle()).toBe(first);
    expect(iframe.parentElement).toBe(dashboardElement());
  }
  expect(app.session).toHaveBeenCalledOnce();
  expect(payloads(post)).toEqual([{ scheme: 'dark' }]);
});
