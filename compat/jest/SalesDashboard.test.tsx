import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, jest, test } from '@jest/globals';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import { SalesDashboard } from './SalesDashboard';

/* The README's React unit test under Jest in CommonJS (Vitest runs the same one: packages/react/test/hostApp.test.tsx). */

let fake: FakePlatform;
beforeEach(() => {
  fake = installFakePlatform({ act });
  // The component asks its backend for a session: answer with a fresh one each time.
  globalThis.fetch = jest.fn(async () => ({ json: async () => ({ sessionId: fake.createSession() }) })) as unknown as typeof fetch;
});
afterEach(() => {
  cleanup();
  fake.uninstall();
  jest.restoreAllMocks();
});

test('shows what the viewer drilled into', async () => {
  render(<SalesDashboard dark />);
  expect(screen.getByText('Loading the dashboard…')).toBeTruthy();

  const embed = await fake.ready();
  expect(screen.queryByText('Loading the dashboard…')).toBeNull();
  expect(embed.actions).toContainEqual({ type: 'set-color-scheme', payload: { scheme: 'dark' } });

  await embed.emit('drilldown', { member: 'orders.count' });
  expect(screen.getByText('Drilled into orders.count')).toBeTruthy();
});

test('says why the dashboard failed, and tries again', async () => {
  render(<SalesDashboard />);
  const embed = await fake.ready();
  await embed.fail('session expired');
  // The SDK retries a failed load with a fresh session, 3 times with backoff (3.5 s at most in all).
  for (let i = 0; i < 3; i++) await (await fake.next()).fail('session expired');

  expect(screen.getByRole('alert').textContent).toContain('session expired');
  await act(async () => screen.getByRole('button', { name: 'Try again' }).click());
  await fake.ready();
  expect(screen.queryByRole('alert')).toBeNull();
  expect(embed.sessions).toHaveLength(5);
}, 10_000);
