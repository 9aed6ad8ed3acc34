import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import { SalesDashboard } from '../../../compat/jest/SalesDashboard';

/* A host's own unit test, as the README's "Testing your integration" shows it (Jest runs the same one: compat/jest). */

let fake: FakePlatform;
beforeEach(() => {
  fake = installFakePlatform({ act });
  // The component asks its backend for a session: answer with a fresh one each time.
  vi.stubGlobal('fetch', async () => ({ json: async () => ({ sessionId: fake.createSession() }) }));
});
afterEach(() => {
  cleanup();
  fake.uninstall();
  vi.unstubAllGlobals();
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
