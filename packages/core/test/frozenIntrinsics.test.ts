import { afterEach, expect, test, vi } from 'vitest';
import { EmbedError, createBinding, embedDashboard, type EmbedHandle } from '../src/index';
import { BASE, READY, deliver, envelope, flush, freshId } from './helpers';

/*
 * A page whose intrinsics are frozen (a hardened page's own `Object.freeze(Error.prototype)`,
 * Node's --frozen-intrinsics; SES's lockdown() freezes them too, but lets `name` be assigned):
 * an assignment to a property an intrinsic prototype holds, such as an error's `name`, throws
 * there. Found by h/attack3. (Its own file: the freeze cannot be undone, and Vitest runs each
 * file in a fresh environment.)
 */

const frozen = [Error.prototype, Object.prototype, Array.prototype, Function.prototype, Promise.prototype, Map.prototype];
frozen.forEach((intrinsic) => Object.freeze(intrinsic));

const handles: EmbedHandle[] = [];
afterEach(() => {
  handles.splice(0).forEach((h) => h.destroy());
  document.body.replaceChildren();
});
const box = () => document.body.appendChild(document.createElement('div'));

test('the intrinsics are frozen (the premise)', () => {
  expect(frozen.every((intrinsic) => Object.isFrozen(intrinsic))).toBe(true);
});

test('an EmbedError is made, thrown and reported as anywhere (was: every EmbedError threw a TypeError: its name could not be assigned)', async () => {
  expect(new EmbedError('timeout', 'x')).toMatchObject({ name: 'EmbedError', code: 'timeout', message: '[platform-embed] x' });
  expect(() => embedDashboard({ container: box(), baseUrl: 'nope', publicId: 'p' })).toThrow(EmbedError);
  const binding = createBinding<'dashboard'>();
  expect(() =>
    binding.mount(box(), { surface: 'dashboard', baseUrl: BASE, publicId: 'p', colorScheme: 'purple' as never, onError: () => {} }),
  ).not.toThrow();
  expect(binding.getState().error?.code).toBe('invalid-option');
});

test('an embed loads, fails for good and is destroyed without a throw into the page (was: a TypeError from the message listener, and from destroy())', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  const handle = embedDashboard({ container: box(), baseUrl: BASE, publicId: 'sales', session: freshId, retry: false, onError: () => {} });
  handles.push(handle);
  await flush();
  deliver(envelope('ready', READY), handle.iframe!.contentWindow);
  expect(handle.getState().status).toBe('ready');
  deliver(envelope('error', { message: 'expired', fatal: true }), handle.iframe!.contentWindow);
  expect(handle.getState().error?.code).toBe('fatal');
  expect(() => handle.destroy()).not.toThrow();
  expect(handle.getState().status).toBe('destroyed');
});
