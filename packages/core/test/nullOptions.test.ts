import { afterEach, expect, test, vi } from 'vitest';
import { createBinding, listenerCount, type EmbedBindingOptions, type Surface } from '../src/index';
import { BASE, iframes, mintSessions, settle } from './helpers';

/*
 * `null` in a binding's options, per surface (the bindings' own tables: nullTable.ts): not set on
 * an optional option; on what the surface requires, not known yet (idle, nothing minted, no error).
 */

const unmounts: (() => void)[] = [];
afterEach(async () => {
  unmounts.splice(0).forEach((unmount) => unmount());
  await settle();
  vi.restoreAllMocks();
  expect(listenerCount()).toBe(0);
});

const mount = <S extends Surface>(options: EmbedBindingOptions<S>) => {
  const binding = createBinding<S>();
  const box = document.body.appendChild(document.createElement('div'));
  binding.mount(box, options);
  unmounts.push(binding.unmount);
  return [binding, (next: EmbedBindingOptions<S>) => binding.mount(box, next)] as const;
};

test.each<[string, EmbedBindingOptions<Surface>]>([
  ["an app's session", { surface: 'app', baseUrl: BASE, deploymentId: 7, session: null } as EmbedBindingOptions<'app'>],
  ["an app's deploymentId", { surface: 'app', baseUrl: BASE, deploymentId: null, session: mintSessions() } as EmbedBindingOptions<'app'>],
  ["a chat's baseUrl", { surface: 'chat', baseUrl: null } as EmbedBindingOptions<'chat'>],
])('%s null: idle, nothing minted, no error, until it comes', async (_, options) => {
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  const [binding, update] = mount(options);
  await settle();
  expect(binding.getState().status).toBe('idle');
  expect(binding.handle).toBeNull();
  expect(iframes()).toEqual([]);
  update({
    ...options,
    baseUrl: BASE,
    ...(options.surface == 'app' && { deploymentId: 7, session: mintSessions() }),
  } as EmbedBindingOptions<Surface>);
  expect(binding.getState().status).toBe('loading');
  await settle();
  expect(iframes()).toHaveLength(1);
  expect(error).not.toHaveBeenCalled();
});

test("null on what the surface does not read is not waited for: a dashboard's deploymentId, a chat's session (private mode)", async () => {
  const session = mintSessions();
  const [dashboard] = mount({ surface: 'dashboard', baseUrl: BASE, publicId: 'p', session, deploymentId: null } as never);
  expect(dashboard.getState().status).toBe('loading');
  const [chat] = mount({ surface: 'chat', baseUrl: BASE, session: null });
  expect(chat.getState().status).toBe('loading');
  await settle();
  expect(iframes()[1]!.src).toBe(`${BASE}/embed/chat`);
});
