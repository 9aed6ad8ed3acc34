import { ApplicationRef } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import { SalesDashboard } from './salesDashboard';

/* A host's own unit test with TestBed, as the README's "Testing your integration" shows it. */

let fake: FakePlatform;
beforeEach(() => {
  // After each event the fake posts, wait for Angular to render what it changed.
  fake = installFakePlatform({
    act: async (dispatch) => {
      await dispatch();
      await TestBed.inject(ApplicationRef).whenStable();
    },
  });
  // The component asks its backend for a session: answer with a fresh one each time.
  vi.stubGlobal('fetch', async () => Response.json({ sessionId: fake.createSession() }));
});
afterEach(() => {
  fake.uninstall();
  vi.unstubAllGlobals();
});

test('shows what the viewer drilled into', async () => {
  const fixture = TestBed.createComponent(SalesDashboard);
  fixture.componentRef.setInput('dark', true);
  await fixture.whenStable();
  const page: HTMLElement = fixture.nativeElement;
  expect(page.textContent).toContain('Loading the dashboard…');

  const embed = await fake.ready();
  expect(page.textContent).not.toContain('Loading the dashboard…');
  expect(embed.actions).toContainEqual({ type: 'set-color-scheme', payload: { scheme: 'dark' } });

  await embed.emit('drilldown', { member: 'orders.count' });
  expect(page.textContent).toContain('Drilled into orders.count');
});

test('says why the dashboard failed, and tries again', async () => {
  const fixture = TestBed.createComponent(SalesDashboard);
  await fixture.whenStable();
  const page: HTMLElement = fixture.nativeElement;
  const embed = await fake.ready();
  await embed.fail('session expired');
  // The SDK retries a failed load with a fresh session, 3 times with backoff (3.5 s at most in all).
  for (let i = 0; i < 3; i++) await (await fake.next()).fail('session expired');

  expect(page.querySelector('[role="alert"]')?.textContent).toContain('session expired');
  page.querySelector('button')!.click();
  await fake.ready();
  expect(page.querySelector('[role="alert"]')).toBeNull();
  expect(embed.sessions).toHaveLength(5);
}, 10_000);
