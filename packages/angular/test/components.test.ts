import { Component, reflectComponentType, signal, type Type } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  EVENT_SCHEMAS,
  PlatformApp,
  PlatformChat,
  PlatformDashboard,
  PlatformEmbedError,
  PlatformEmbedLoading,
  listenerCount,
  type EventName,
} from '@platform-embed/angular';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import { payload, settle } from '../../core/test/helpers';

// The components as a host's template uses them (zoneless: TestBed's default), answered by the testing kit's fake platform.

let fake: FakePlatform;
const session = () => fake.createSession();
beforeEach(() => {
  fake = installFakePlatform({ act: async (dispatch) => void (await dispatch(), await TestBed.tick()) });
});
afterEach(async () => {
  TestBed.resetTestingModule();
  await settle();
  expect(listenerCount()).toBe(0);
  fake.uninstall();
});

@Component({
  imports: [PlatformDashboard, PlatformEmbedLoading, PlatformEmbedError],
  template: `
    <platform-embed-dashboard
      #dashboard
      class="sales"
      style="height: 300px"
      baseUrl="https://acme.platform.example"
      publicId="sales-overview"
      [session]="session"
      [retry]="false"
      allowExport
      showDashboardHeader="false"
      (drilldown)="drilled.set($event.member)"
    >
      @if (templates()) {
        <ng-template platformEmbedLoading><p>Loading…</p></ng-template>
        <ng-template platformEmbedError let-error let-retry="retry">
          <p>{{ error.code }}: {{ error.message }}</p>
          <button (click)="retry()">Try again</button>
        </ng-template>
      }
    </platform-embed-dashboard>
  `,
})
class Host {
  readonly session = session;
  readonly templates = signal(true);
  readonly drilled = signal('');
}

const element = (root: HTMLElement) => root.querySelector('platform-embed-dashboard') as HTMLElement;

test('the embed is created after the first render (one session), in the element, a block with the host’s class and style', async () => {
  const fixture = TestBed.createComponent(Host);
  const dashboard = fixture.debugElement.children[0]!.componentInstance as PlatformDashboard;
  expect(dashboard.handle()).toBeNull();
  expect(dashboard.state().status).toBe('idle');
  await fixture.whenStable();
  const embed = await fake.ready();
  expect(dashboard.state().status).toBe('ready');
  expect(dashboard.handle()!.getState()).toBe(dashboard.state());
  const host = element(fixture.nativeElement);
  expect(embed.iframe.parentElement).toBe(host);
  expect(host.className).toBe('sales');
  expect(host.style.display).toBe('block');
  expect(host.style.height).toBe('300px');
  expect(host.dataset['platformEmbed']).toBe('dashboard');
  expect(embed.sessions).toHaveLength(1);
  // Flags from static attributes: `allowExport` is true, `showDashboardHeader="false"` false.
  expect(embed.url.searchParams.get('allowExport')).toBe('true');
  expect(embed.url.searchParams.get('showDashboardHeader')).toBe('false');
});

test('the loading template while loading (aria-busy), the error template in an alert with the error and a retry that loads again', async () => {
  const fixture = TestBed.createComponent(Host);
  await fixture.whenStable();
  const host = element(fixture.nativeElement);
  expect(host.getAttribute('aria-busy')).toBe('true');
  expect(host.textContent).toContain('Loading…');

  const embed = await fake.next();
  await embed.fail('session expired');
  await fixture.whenStable();
  expect(host.hasAttribute('aria-busy')).toBe(false);
  expect(host.textContent).not.toContain('Loading…');
  const alert = host.querySelector('[role="alert"]')!;
  expect(alert.textContent).toContain('fatal: [platform-embed] the embed failed: session expired');

  alert.querySelector('button')!.click();
  await fake.ready();
  await fixture.whenStable();
  expect(host.querySelector('[role="alert"]')).toBeNull();
  expect(embed.sessions).toHaveLength(2);
});

test('without templates nothing is drawn over the embed and the element is never aria-busy', async () => {
  const fixture = TestBed.createComponent(Host);
  fixture.componentInstance.templates.set(false);
  await fixture.whenStable();
  const host = element(fixture.nativeElement);
  expect(host.hasAttribute('aria-busy')).toBe(false);
  const embed = await fake.next();
  await embed.fail('session expired');
  await fixture.whenStable();
  expect(host.querySelector('[role="alert"]')).toBeNull();
  expect([...host.children].map((child) => child.tagName)).toEqual(['IFRAME']);
});

test('every event of the catalog is an output with its payload, and `event` receives every envelope', async () => {
  const fixture = TestBed.createComponent(PlatformDashboard);
  fixture.componentRef.setInput('baseUrl', 'https://acme.platform.example');
  fixture.componentRef.setInput('publicId', 'sales-overview');
  fixture.componentRef.setInput('session', session);
  const outputs = fixture.componentInstance as unknown as Record<string, { subscribe(fn: (value: unknown) => void): unknown }>;
  const received: [string, unknown][] = [];
  const names = Object.keys(EVENT_SCHEMAS) as EventName[];
  for (const name of names) {
    const output = name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
    outputs[output]!.subscribe((value) => received.push([output, value]));
  }
  outputs['event']!.subscribe((message) => received.push(['event', (message as { type: string }).type]));
  await fixture.whenStable();
  const embed = await fake.ready();
  received.length = 0;
  for (const name of names.filter((n) => n != 'ready')) await embed.emit(name, payload(name) as never);
  expect(received).toEqual(
    names
      .filter((n) => n != 'ready')
      .flatMap((name) => [
        [name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()), payload(name)],
        ['event', `platform:event:${name}`],
      ]),
  );
});

test('a typed output in a template: (drilldown) gets the payload', async () => {
  const fixture = TestBed.createComponent(Host);
  await fixture.whenStable();
  const embed = await fake.ready();
  await embed.emit('drilldown', { member: 'orders.count', value: 3 });
  expect(fixture.componentInstance.drilled()).toBe('orders.count');
});

test('destroying the component destroys the embed: its iframe and listeners go, the state says destroyed', async () => {
  const fixture = TestBed.createComponent(Host);
  await fixture.whenStable();
  const embed = await fake.ready();
  const dashboard = fixture.debugElement.children[0]!.componentInstance as PlatformDashboard;
  fixture.destroy();
  await settle();
  expect(embed.mounted).toBe(false);
  expect(dashboard.handle()).toBeNull();
  expect(dashboard.state().status).toBe('destroyed');
  expect(listenerCount()).toBe(0);
});

test('a component destroyed before its first render never creates an embed (no session)', async () => {
  const fixture = TestBed.createComponent(Host);
  fixture.destroy();
  await settle();
  expect(fake.embeds).toHaveLength(0);
});

test.each([
  ['chat', PlatformChat as Type<unknown>, {}],
  ['app', PlatformApp as Type<unknown>, { deploymentId: 7 }],
] as const)('<platform-embed-%s> embeds its surface', async (surface, type, inputs) => {
  const fixture = TestBed.createComponent(type);
  fixture.componentRef.setInput('baseUrl', 'https://acme.platform.example');
  fixture.componentRef.setInput('session', session);
  for (const [name, value] of Object.entries(inputs)) fixture.componentRef.setInput(name, value);
  await fixture.whenStable();
  const embed = await fake.ready();
  expect(embed.surface).toBe(surface);
  // Not the custom elements' `platform-<surface>`: both may live in one app.
  expect(reflectComponentType(type)!.selector).toBe(`platform-embed-${surface}`);
});
