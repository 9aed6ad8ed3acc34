import { AsyncPipe } from '@angular/common';
import { Component, viewChild } from '@angular/core';
import { TestBed, type ComponentFixture } from '@angular/core/testing';
import { Subject } from 'rxjs';
import { afterEach, beforeEach, expect, test, vi, type MockInstance } from 'vitest';
import { PlatformDashboard, PlatformEmbedError, PlatformEmbedLoading, listenerCount, type ColorScheme } from '@platform-embed/angular';
import { BASE, iframes, mintSessions, settle } from '../../core/test/helpers';

// Inputs bound with `| async`, which gives `null` until the observable's first value: under
// strictTemplates (`pnpm typecheck` compiles this template with ngc) and at run time. An id not
// there yet is waited for (the loading template, no error, nothing minted); an optional input's
// `null` is not set.

@Component({
  imports: [AsyncPipe, PlatformDashboard, PlatformEmbedLoading, PlatformEmbedError],
  template: `
    <platform-embed-dashboard
      [baseUrl]="base"
      [publicId]="id$ | async"
      [colorScheme]="scheme$ | async"
      [title]="title$ | async"
      [session]="session"
    >
      <ng-template platformEmbedLoading><p data-loading>Loading…</p></ng-template>
      <ng-template platformEmbedError let-error
        ><p data-error-ui>{{ error.message }}</p></ng-template
      >
    </platform-embed-dashboard>
  `,
})
class Host {
  readonly base = BASE;
  readonly session = mintSessions();
  readonly id$ = new Subject<string>();
  readonly scheme$ = new Subject<ColorScheme>();
  readonly title$ = new Subject<string>();
  readonly embed = viewChild.required(PlatformDashboard);
}

let fixture: ComponentFixture<Host>;
let consoleError: MockInstance<(...args: unknown[]) => void>;
const page = () => fixture.nativeElement as HTMLElement;
const stable = async () => (await fixture.whenStable(), await settle());

beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(async () => {
  fixture.destroy();
  await settle();
  vi.restoreAllMocks();
  globalThis.__DEV__ = true;
  expect(listenerCount()).toBe(0);
});

test.each([
  ['development', true],
  ['production', false],
])('[publicId]="id$ | async": waits for the id (the loading template, no error), then loads once (%s)', async (_, development) => {
  globalThis.__DEV__ = development;
  fixture = TestBed.createComponent(Host);
  await stable();
  const host = fixture.componentInstance;
  expect(host.embed().state().status).toBe('idle');
  expect(page().querySelector('[data-loading]')).not.toBeNull();
  expect(page().querySelector('[data-error-ui]')).toBeNull();
  expect(iframes()).toEqual([]);
  // The scheme comes first: still no id, still waiting.
  host.scheme$.next('dark');
  await stable();
  expect(host.embed().state().status).toBe('idle');
  expect(iframes()).toEqual([]);
  host.id$.next('sales');
  await stable();
  expect(host.embed().state().status).toBe('loading');
  expect(iframes()).toHaveLength(1);
  expect(iframes()[0]!.src).toContain('/embed/dashboard/sales');
  expect(page().querySelector('[data-error-ui]')).toBeNull();
  expect(host.session).toHaveBeenCalledOnce();
  // The title never came: `null` is not set (the default title), no reload.
  expect(iframes()[0]!.title).not.toBe('');
  expect(consoleError).not.toHaveBeenCalled();
});
