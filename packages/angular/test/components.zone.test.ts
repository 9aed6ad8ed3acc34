import { Component, NgZone, provideZoneChangeDetection, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { PlatformDashboard } from '@platform-embed/angular';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';

// With zone.js (the `angular+zone.js` project loads it): the controller runs outside Angular's
// zone, its outputs and state changes come back into it.

let fake: FakePlatform;
beforeEach(() => {
  fake = installFakePlatform();
  TestBed.configureTestingModule({ providers: [provideZoneChangeDetection()] });
});
afterEach(() => fake.uninstall());

@Component({
  imports: [PlatformDashboard],
  template: `
    <p>{{ later }}</p>
    <platform-embed-dashboard
      baseUrl="https://acme.platform.example"
      publicId="sales-overview"
      [session]="session"
      (drilldown)="onDrilldown($event.member)"
    />
  `,
})
class Host {
  readonly session = () => fake.createSession();
  readonly inZone = signal<boolean | null>(null);
  // A plain field, set by a timer the handler starts: rendered only if the handler ran in the zone.
  later = '';
  onDrilldown(member: string) {
    this.inZone.set(NgZone.isInAngularZone());
    setTimeout(() => (this.later = member));
  }
}

test('runs under NgZone (the zone.js project is set up)', () => {
  expect(TestBed.inject(NgZone)).not.toHaveProperty('isNoop', true);
  expect((globalThis as { Zone?: unknown }).Zone).toBeDefined();
});

test('the controller works outside the zone: its observers and timers never keep the app unstable', async () => {
  // A lazy embed observes its container from the start, while it is created: the observer says in which zone.
  const zones: boolean[] = [];
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor() {
        zones.push(NgZone.isInAngularZone());
      }
      observe() {}
      disconnect() {}
    },
  );
  const fixture = TestBed.createComponent(PlatformDashboard);
  fixture.componentRef.setInput('baseUrl', 'https://acme.platform.example');
  fixture.componentRef.setInput('publicId', 'sales-overview');
  fixture.componentRef.setInput('loading', 'lazy');
  // In the zone, as an app's change detection runs (TestBed's own runs outside it).
  TestBed.inject(NgZone).run(() => fixture.detectChanges());
  await fixture.whenStable();
  expect(zones).toEqual([false]);
  expect(fixture.componentInstance.state().status).toBe('idle');
  vi.unstubAllGlobals();
});

test('outputs are emitted in the zone: a plain field a handler sets later is rendered', async () => {
  const fixture = TestBed.createComponent(Host);
  fixture.autoDetectChanges();
  const embed = await fake.ready();
  await embed.emit('drilldown', { member: 'orders.count' });
  expect(fixture.componentInstance.inZone()).toBe(true);
  await fixture.whenStable();
  expect((fixture.nativeElement as HTMLElement).querySelector('p')!.textContent).toBe('orders.count');
});
