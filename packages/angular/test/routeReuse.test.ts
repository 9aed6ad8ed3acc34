import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { By } from '@angular/platform-browser';
import { expect, test, vi } from 'vitest';
import { PlatformDashboard, parkedCount } from '@platform-embed/angular';
import { keepEmbeds } from '@platform-embed/angular/router';
import { BASE, emit, iframes, payload, settle, withMoveBefore } from '../../core/test/helpers';
import { ReuseMarkedRoutes, app, dashboard, dashboardElement, go, payloads, restoreAfter, start, useRoutedApp } from './routedApp';

/*
 * The router takes a route's view out of the document (which unloads an iframe) before any hook
 * of its components runs: when it detaches the view for reuse (a RouteReuseStrategy whose
 * shouldDetach is true), and when it destroys it. keepEmbeds() moves the route's embeds aside
 * first and back when the route is attached again. jsdom has no moveBefore: withMoveBefore()
 * gives it one (and jsdom gives a moved iframe a new window; the tests read the one the SDK kept).
 */

useRoutedApp();

@Component({
  imports: [PlatformDashboard],
  template: `@if (shown()) {
    <platform-embed-dashboard keepAlive [baseUrl]="base" publicId="toggled" [session]="session" />
  }`,
})
class Toggled {
  readonly shown = signal(true);
  readonly base = BASE;
  readonly session = app.session;
}

test('route reuse with keepEmbeds and moveBefore: left and entered again 3 times, the same iframe keeps its document; one session; a change made meanwhile is an action', async () => {
  restoreAfter(withMoveBefore().restore);
  start(keepEmbeds(new ReuseMarkedRoutes()));
  await go('/sales');
  const first = dashboard()!.handle()!;
  const iframe = iframes()[0]!;
  const win = iframe.contentWindow!;
  emit(iframe, 'ready', payload('ready'));
  const post = vi.spyOn(win, 'postMessage').mockImplementation(() => {});
  for (let round = 1; round <= 3; round++) {
    await go('/settings');
    expect(dashboard()).toBeUndefined(); // the route's view is detached, not destroyed
    expect(iframe.isConnected).toBe(true); // aside in the page's lot, not in the detached view
    expect(first.getState().status).toBe('ready');
    if (round == 2) app.scheme.set('dark');
    await go('/sales');
    expect(dashboard()!.handle()).toBe(first);
    expect(iframes()).toEqual([iframe]);
    expect(iframe.parentElement).toBe(dashboardElement());
  }
  expect(app.session).toHaveBeenCalledOnce();
  expect(payloads(post)).toEqual([{ scheme: 'dark' }]);
  expect(parkedCount()).toBe(0);
});

test('route reuse with keepEmbeds, without moveBefore: never an error, never the used session again; back, a fresh one and the kept state', async () => {
  start(keepEmbeds(new ReuseMarkedRoutes()));
  await go('/sales');
  const first = dashboard()!.handle()!;
  emit(iframes()[0]!, 'ready', payload('ready'));
  emit(iframes()[0]!, 'navigate', { path: '/d/sales/q3' });
  const states: string[] = [];
  first.subscribe(() => states.push(first.getState().status));
  await go('/settings');
  expect(iframes()).toEqual([]); // the frame could not move: dropped before the view left
  app.scheme.set('dark');
  await go('/sales');
  expect(dashboard()!.handle()).toBe(first);
  expect(app.session).toHaveBeenCalledTimes(2);
  expect(new URL(iframes()[0]!.src).searchParams.get('session')).toBe(app.session.id(2));
  const post = vi.spyOn(iframes()[0]!.contentWindow!, 'postMessage');
  emit(iframes()[0]!, 'ready', payload('ready'));
  expect(payloads(post)).toEqual([{ scheme: 'dark' }, { path: '/d/sales/q3' }]);
  expect(states).not.toContain('error');
  expect(first.getState().status).toBe('ready');
});

test('keepAlive without keepEmbeds: the router removes the view before the component is destroyed, so the embed is parked cold (a fresh session when adopted)', async () => {
  restoreAfter(withMoveBefore().restore);
  start();
  await go('/kept');
  const first = dashboard()!.handle()!;
  const iframe = iframes()[0]!;
  emit(iframe, 'ready', payload('ready'));
  emit(iframe, 'navigate', { path: '/d/kept/q3' });
  await go('/settings');
  expect(dashboard()).toBeUndefined(); // destroyed
  expect(parkedCount()).toBe(1);
  expect(iframe.isConnected).toBe(false); // gone with the view: its document was unloaded
  expect(iframes()).toEqual([]);
  expect(first.getState().status).toBe('idle');
  app.scheme.set('dark');
  await go('/kept');
  expect(dashboard()!.handle()).toBe(first); // adopted: the same handle, its state kept
  expect(app.session).toHaveBeenCalledTimes(2);
  expect(iframes()).toHaveLength(1);
  expect(iframes()[0]).not.toBe(iframe);
  const post = vi.spyOn(iframes()[0]!.contentWindow!, 'postMessage');
  emit(iframes()[0]!, 'ready', payload('ready'));
  expect(payloads(post)).toEqual([{ scheme: 'dark' }, { path: '/d/kept/q3' }]);
});

test('keepAlive with keepEmbeds() (nothing reused): parked with its document when its route is destroyed; adopted with no session, a change made meanwhile an action', async () => {
  restoreAfter(withMoveBefore().restore);
  start(keepEmbeds());
  await go('/kept');
  const first = dashboard()!.handle()!;
  const iframe = iframes()[0]!;
  const win = iframe.contentWindow!;
  emit(iframe, 'ready', payload('ready'));
  const post = vi.spyOn(win, 'postMessage').mockImplementation(() => {});
  await go('/settings');
  expect(dashboard()).toBeUndefined();
  expect(parkedCount()).toBe(1);
  expect(iframe.isConnected).toBe(true); // in the lot
  expect(first.getState().status).toBe('ready');
  app.scheme.set('dark');
  await go('/kept');
  expect(dashboard()!.handle()).toBe(first);
  expect(iframes()).toEqual([iframe]);
  expect(iframe.parentElement).toBe(dashboardElement());
  expect(app.session).toHaveBeenCalledOnce();
  expect(payloads(post)).toEqual([{ scheme: 'dark' }]);
  expect(parkedCount()).toBe(0);
  // `ready` is sticky: the adopting component's (ready) emitted too, once.
  expect(app.readies).toBe(2);
});

test('keepEmbeds moves only the embeds of the route that leaves: one in the app’s shell stays where it is', async () => {
  const { moves, restore } = withMoveBefore();
  restoreAfter(restore);
  app.shellChat = true;
  const strategy = keepEmbeds(new ReuseMarkedRoutes());
  start(strategy);
  await go('/sales');
  const [chat, sales] = iframes() as [HTMLIFrameElement, HTMLIFrameElement];
  expect(chat.src).toContain('/embed/chat');
  await go('/settings');
  await go('/kept');
  const kept = dashboardElement()!.querySelector('iframe')!;
  await go('/settings');
  // The detached route's embed, then the destroyed route's keepAlive one (parked with its document).
  expect(moves.map(([, node]) => node)).toEqual([sales, kept]);
  expect(chat.parentElement!.tagName).toBe('PLATFORM-EMBED-CHAT');
  expect(new Set(iframes())).toEqual(new Set([chat, sales, kept]));
  // The app drops the route it keeps: destroyed, its embed goes (not kept alive).
  strategy.drop();
  await settle();
  expect(new Set(iframes())).toEqual(new Set([chat, kept]));
});

test('a route attached again takes back its own embeds; those of another detached route stay aside', async () => {
  restoreAfter(withMoveBefore().restore);
  start(keepEmbeds(new ReuseMarkedRoutes()));
  await go('/sales');
  const sales = iframes()[0]!;
  await go('/costs');
  const costs = dashboardElement()!.querySelector('iframe')!;
  await go('/settings');
  await go('/sales');
  expect(sales.parentElement).toBe(dashboardElement());
  expect(costs.isConnected).toBe(true); // still aside, in the lot: its element is out of the document
  await go('/costs');
  expect(costs.parentElement).toBe(dashboardElement());
  expect(sales.isConnected).toBe(true);
  expect(app.session).toHaveBeenCalledTimes(2);
});

test('keepAlive outside the router (an @if that removes the component): Angular removes its DOM before any hook runs, so it is parked cold', async () => {
  restoreAfter(withMoveBefore().restore);
  const fixture = TestBed.createComponent(Toggled);
  await fixture.whenStable();
  await settle();
  const first = (fixture.debugElement.query(By.directive(PlatformDashboard)).componentInstance as PlatformDashboard).handle()!;
  const iframe = iframes()[0]!;
  emit(iframe, 'ready', payload('ready'));
  fixture.componentInstance.shown.set(false);
  await fixture.whenStable();
  await settle();
  expect(parkedCount()).toBe(1);
  expect(iframe.isConnected).toBe(false);
  fixture.componentInstance.shown.set(true);
  await fixture.whenStable();
  await settle();
  expect((fixture.debugElement.query(By.directive(PlatformDashboard)).componentInstance as PlatformDashboard).handle()).toBe(first);
  expect(app.session).toHaveBeenCalledTimes(2);
});
