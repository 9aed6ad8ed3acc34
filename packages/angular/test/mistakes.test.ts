import { Component, signal, viewChild } from '@angular/core';
import { TestBed, type ComponentFixture } from '@angular/core/testing';
import { afterEach, expect } from 'vitest';
import { PlatformDashboard, PlatformEmbedError, listenerCount } from '@platform-embed/angular';
import type { Options } from '../../core/test/behaviour';
import { mistakeTable, type MistakeDriver } from '../../core/test/mistakeTable';
import { nullTable } from '../../core/test/nullTable';
import { settle } from '../../core/test/helpers';

// The mistake table through a host template's bindings, in an app with a counter of its own;
// the error template, and `(error)` bound in the host that hears.
// (Static, for Angular's compiler: the two hosts differ in the `(error)` binding only.)
const BUTTON = '<button (click)="clicks.set(clicks() + 1)">clicked {{ clicks() }}</button>';
const INPUTS = `[baseUrl]="o().baseUrl!" [publicId]="o().publicId!" [session]="o().session" [colorScheme]="o().colorScheme"
  [theme]="o().theme" [readyTimeout]="o().readyTimeout" [allowExport]="o().allowExport" [filters]="o().filters"
  [sandbox]="o().sandbox" [title]="o().title" [retry]="o().retry" [keepAlive]="o().keepAlive"`;
const ERROR_UI = '<ng-template platformEmbedError let-error><p data-error-ui>{{ error.message }}</p></ng-template>';

@Component({
  imports: [PlatformDashboard, PlatformEmbedError],
  template: `${BUTTON}<platform-embed-dashboard ${INPUTS}>${ERROR_UI}</platform-embed-dashboard>`,
})
class App {
  readonly clicks = signal(0);
  readonly o = signal<Options>({});
  readonly embed = viewChild.required(PlatformDashboard);
  hear?: (payload: Record<string, unknown>) => void;
}

@Component({
  imports: [PlatformDashboard, PlatformEmbedError],
  template: `${BUTTON}<platform-embed-dashboard ${INPUTS} (error)="hear!($event)">${ERROR_UI}</platform-embed-dashboard>`,
})
class HearingApp extends App {}

let fixture: ComponentFixture<App> | undefined;
const page = () => fixture!.nativeElement as HTMLElement;

afterEach(async () => {
  fixture?.destroy();
  fixture = undefined;
  await settle();
  expect(listenerCount()).toBe(0);
});

const driver: MistakeDriver = {
  name: 'angular',
  async render(options, hear) {
    fixture = TestBed.createComponent(hear ? HearingApp : App);
    fixture.componentInstance.hear = hear;
    fixture.componentInstance.o.set(options);
    await fixture.whenStable();
    await settle();
  },
  async update(options) {
    fixture!.componentInstance.o.set(options);
    await fixture!.whenStable();
    await settle();
  },
  async click() {
    page().querySelector('button')!.click();
    await fixture!.whenStable();
    return page().querySelector('button')!.textContent!.trim();
  },
  state: () => fixture!.componentInstance.embed().state(),
  errorUi: () => page().querySelector('[data-error-ui]')?.textContent ?? null,
  async unmount() {
    fixture?.destroy();
    fixture = undefined;
    await settle();
  },
};
mistakeTable(driver);
nullTable(driver);
