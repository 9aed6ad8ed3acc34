import { Component, signal, type ComponentRef } from '@angular/core';
import { TestBed, type ComponentFixture } from '@angular/core/testing';
import { By } from '@angular/platform-browser';
import {
  BaseRouteReuseStrategy,
  RouteReuseStrategy,
  Router,
  RouterOutlet,
  provideRouter,
  type ActivatedRouteSnapshot,
  type DetachedRouteHandle,
  type Routes,
} from '@angular/router';
import { afterEach, beforeEach, expect } from 'vitest';
import { PlatformChat, PlatformDashboard, configureParking, listenerCount } from '@platform-embed/angular';
import { BASE, iframes, mintSessions, settle } from '../../core/test/helpers';

/*
 * The app of the route reuse tests (routeReuse.test.ts, routeReuse.zone.test.ts): a shell with a
 * router outlet (and, if asked, a chat of its own), routes with a dashboard each (`sales` and
 * `costs` reused, `kept` with keepAlive, destroyed when left) and `settings`, without one.
 */

/** An app's strategy: the routes with `data: { reuse: true }` are detached and attached again, by path. */
export class ReuseMarkedRoutes extends BaseRouteReuseStrategy {
  readonly stored = new Map<string, DetachedRouteHandle>();
  override shouldDetach(route: ActivatedRouteSnapshot): boolean {
    return route.data['reuse'] === true;
  }
  override store(route: ActivatedRouteSnapshot, handle: DetachedRouteHandle | null): void {
    if (handle) this.stored.set(route.routeConfig!.path!, handle);
    else this.stored.delete(route.routeConfig!.path!);
  }
  override shouldAttach(route: ActivatedRouteSnapshot): boolean {
    return this.stored.has(route.routeConfig?.path ?? '');
  }
  override retrieve(route: ActivatedRouteSnapshot): DetachedRouteHandle | null {
    return this.stored.get(route.routeConfig?.path ?? '') ?? null;
  }
  /** Destroys the stored routes' components (the router never does: a strategy that forgets a route destroys it). */
  drop() {
    for (const handle of this.stored.values()) (handle as { componentRef: ComponentRef<unknown> }).componentRef.destroy();
    this.stored.clear();
  }
}

/** What the routes' dashboards read (the color scheme is changed while a route is away), reset before each test. */
export const app = {
  scheme: signal<'light' | 'dark'>('light'),
  session: mintSessions(),
  /** Whether the shell has a chat of its own. */
  shellChat: false,
  /** How often the kept-alive dashboard's `(ready)` output emitted. */
  readies: 0,
};

@Component({
  imports: [PlatformDashboard],
  template: `<platform-embed-dashboard [baseUrl]="base" publicId="sales" [session]="session" [colorScheme]="scheme()" />`,
})
class Sales {
  readonly base = BASE;
  readonly session = app.session;
  readonly scheme = app.scheme;
}

@Component({
  imports: [PlatformDashboard],
  template: `<platform-embed-dashboard [baseUrl]="base" publicId="costs" [session]="session" [colorScheme]="scheme()" />`,
})
class Costs extends Sales {}

@Component({
  imports: [PlatformDashboard],
  template: `<platform-embed-dashboard
    keepAlive
    [baseUrl]="base"
    publicId="kept"
    [session]="session"
    [colorScheme]="scheme()"
    (ready)="ready()"
  />`,
})
class KeptSales extends Sales {
  readonly ready = () => app.readies++;
}

@Component({ template: '<p>settings</p>' })
class Settings {}

@Component({
  imports: [RouterOutlet, PlatformChat],
  template: `@if (chat) {
      <platform-embed-chat [baseUrl]="base" />
    }
    <router-outlet />`,
})
class Shell {
  readonly chat = app.shellChat;
  readonly base = BASE;
}

const routes: Routes = [
  { path: 'sales', component: Sales, data: { reuse: true } },
  { path: 'costs', component: Costs, data: { reuse: true } },
  { path: 'kept', component: KeptSales },
  { path: 'settings', component: Settings },
];

let fixture: ComponentFixture<Shell>;
let stored: ReuseMarkedRoutes | undefined;
let restore: (() => void) | undefined;

/** Registers the hooks of the tests: a fresh app state before each, and after each nothing left (iframes, listeners, parked embeds). */
export function useRoutedApp(): void {
  beforeEach(() => {
    app.scheme.set('light');
    app.session = mintSessions();
    app.shellChat = false;
    app.readies = 0;
  });
  afterEach(async () => {
    // (The router never destroys the routes a strategy holds.)
    stored?.drop();
    stored = undefined;
    TestBed.resetTestingModule();
    restore?.();
    restore = undefined;
    // (Destroys what the lot still holds, once the components destroyed have parked theirs.)
    await settle();
    configureParking({ max: 0 });
    configureParking({ max: 3 });
    await settle();
    expect(iframes()).toEqual([]);
    expect(listenerCount()).toBe(0);
  });
}

/** Takes jsdom's `moveBefore` (see withMoveBefore) away after the test. */
export const restoreAfter = (fn: () => void): void => void (restore = fn);

/** Creates the shell with the routes, with the app's strategy given (else Angular's default). */
export function start(strategy?: RouteReuseStrategy): ComponentFixture<unknown> {
  if (strategy instanceof ReuseMarkedRoutes) stored = strategy;
  TestBed.configureTestingModule({
    providers: [provideRouter(routes), ...(strategy ? [{ provide: RouteReuseStrategy, useValue: strategy }] : [])],
  });
  fixture = TestBed.createComponent(Shell);
  // (Zoneless fixtures do; with zone.js, the app's ticks render the fixture too.)
  fixture.autoDetectChanges();
  return fixture;
}

/** Navigates to `url` and waits until the app and the embeds settle. */
export async function go(url: string): Promise<void> {
  await TestBed.inject(Router).navigateByUrl(url);
  await fixture.whenStable();
  await settle();
}

/** The dashboard component of the route shown, if any. */
export const dashboard = () =>
  fixture.debugElement.query(By.directive(PlatformDashboard))?.componentInstance as PlatformDashboard | undefined;

/** The element of the dashboard of the route shown. */
export const dashboardElement = (): Element | null => fixture.nativeElement.querySelector('platform-embed-dashboard');

/** The payloads of the messages a spy on `postMessage` saw. */
export const payloads = (post: { mock: { calls: unknown[][] } }) =>
  post.mock.calls.map(([message]) => (message as { payload: unknown }).payload);
