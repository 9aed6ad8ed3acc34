import { TestBed, type ComponentFixture } from '@angular/core/testing';
import type { OutputEmitterRef, OutputRefSubscription } from '@angular/core';
import { afterEach, expect } from 'vitest';
import { PlatformDashboard } from '@platform-embed/angular';
import { listenerCount } from '@platform-embed/core';
import { behaviourTable, type Options } from '../../core/test/behaviour';
import { settle } from '../../core/test/helpers';

// The same table as the core's, through the component's inputs (`setInput`, as a parent
// template's bindings set them) and outputs (handler options as output subscriptions).
let fixture: ComponentFixture<PlatformDashboard> | undefined;
let bound: string[] = [];
let subscriptions: OutputRefSubscription[] = [];

/** The output of a handler option: `onDrilldown` is `drilldown`. */
const outputOf = (handler: string) => handler[2]!.toLowerCase() + handler.slice(3);

/** Makes `options` the component's whole bindings: inputs set, outputs subscribed, the others unbound. */
function bind(options: Options) {
  const component = fixture!.componentInstance as unknown as Record<string, OutputEmitterRef<unknown>>;
  subscriptions.forEach((subscription) => subscription.unsubscribe());
  subscriptions = [];
  for (const name of bound) if (!(name in options)) fixture!.componentRef.setInput(name, undefined);
  bound = [];
  for (const [name, value] of Object.entries(options)) {
    if (/^on[A-Z]/.test(name)) subscriptions.push(component[outputOf(name)]!.subscribe(value as (payload: unknown) => void));
    else {
      fixture!.componentRef.setInput(name, value);
      bound.push(name);
    }
  }
}

afterEach(async () => {
  fixture?.destroy();
  fixture = undefined;
  await settle();
  expect(listenerCount()).toBe(0);
});

behaviourTable({
  name: 'angular',
  async mount(options) {
    fixture = TestBed.createComponent(PlatformDashboard);
    bound = [];
    bind(options);
    await fixture.whenStable();
    await settle();
  },
  async update(options) {
    bind(options);
    await fixture!.whenStable();
    await settle();
  },
  handle: () => fixture!.componentInstance.handle()!,
  async unmount() {
    fixture!.destroy();
    fixture = undefined;
    await settle();
  },
});
