import { afterEach, beforeEach, expect, test } from 'vitest';
import { createBinding, parkedCount, type EmbedBinding } from '@platform-embed/core';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import { settle } from './helpers';

/*
 * The testing kit between tests: a host's suite renders the same `keepAlive` dashboard in two
 * tests, each cleaned up as Testing Library does (the component unmounted: its embed parked) and
 * the fake uninstalled. Nothing of the first test may reach the second (was: the second test's
 * component adopted the first one's parked embed, with the state the first test set, and the
 * first test's frame; in a real browser, already ready: `fake.ready()` waited for a load that
 * never came).
 */

let fake: FakePlatform;
let binding: EmbedBinding<'dashboard'>;
let box: HTMLElement;
beforeEach(() => {
  fake = installFakePlatform();
  box = document.body.appendChild(document.createElement('div'));
});
afterEach(async () => {
  // (Testing Library's cleanup: the component unmounts, its container goes.)
  binding.unmount();
  await settle();
  box.remove();
  fake.uninstall();
});

const render = () => {
  binding = createBinding<'dashboard'>();
  const session = async () => fake.createSession();
  return binding.mount(box, {
    surface: 'dashboard',
    baseUrl: 'https://acme.platform.example',
    publicId: 'sales',
    keepAlive: true,
    session,
  })!;
};

let first: unknown;
test('the first test sets a color scheme on its keepAlive dashboard', async () => {
  first = render();
  await fake.ready();
  binding.handle!.setColorScheme('dark');
});

test('the second test starts from nothing: a new embed, none of the first test’s actions', async () => {
  expect(parkedCount()).toBe(0);
  const handle = render();
  expect(handle).not.toBe(first);
  const embed = await fake.ready();
  expect(embed.actions).not.toContainEqual({ type: 'set-color-scheme', payload: { scheme: 'dark' } });
});
