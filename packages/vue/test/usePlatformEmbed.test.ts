import { effectScope, isReadonly, reactive, ref, shallowRef } from 'vue';
import { afterEach, expect, test, vi } from 'vitest';
import { listenerCount } from '@platform-embed/core';
import { usePlatformEmbed, type PlatformEmbedOptions } from '../src/index';
import { BASE, emit, freshId, iframes, payload, settle } from '../../core/test/helpers';

// An unmount destroys the embed at the end of the task: `settle` lets that run.
afterEach(async () => {
  await settle();
  document.body.innerHTML = '';
  expect(listenerCount()).toBe(0);
});

const box = () => document.body.appendChild(document.createElement('div'));

test('refs for target and options: readonly state, one controller that reloads on a change of what is embedded, cleanup on scope dispose', async () => {
  const session = vi.fn(async () => `s${session.mock.calls.length}`);
  const target = shallowRef<HTMLElement | null>(null);
  const options = ref<PlatformEmbedOptions<'dashboard'>>({ surface: 'dashboard', baseUrl: BASE, publicId: 'a', session });
  const scope = effectScope();
  const { state, embed } = scope.run(() => usePlatformEmbed(target, options))!;
  expect(state.value.status).toBe('idle');
  expect(isReadonly(state)).toBe(true);
  target.value = box();
  await settle();
  expect(iframes().map((f) => f.src)).toEqual([`${BASE}/embed/dashboard/a?session=s1`]);
  expect(state.value.status).toBe('loading');
  emit(iframes()[0]!, 'ready', payload('ready'));
  expect(state.value).toMatchObject({ status: 'ready', ready: { mode: 'signed' } });

  options.value = { ...options.value, onReady: () => {} };
  await settle();
  expect(session).toHaveBeenCalledOnce();

  const first = embed.value;
  options.value = { ...options.value, publicId: 'b' };
  await settle();
  expect(embed.value).toBe(first);
  expect(iframes().map((f) => f.src)).toEqual([`${BASE}/embed/dashboard/b?session=s2`]);

  scope.stop();
  await settle();
  expect(iframes()).toHaveLength(0);
  expect(state.value.status).toBe('destroyed');
});

test('a getter over reactive state, handlers read at call time', async () => {
  const host = reactive({ publicId: 'a', calls: [] as string[] });
  const scope = effectScope();
  scope.run(() =>
    usePlatformEmbed(box, () => ({
      surface: 'dashboard' as const,
      baseUrl: BASE,
      publicId: host.publicId,
      session: freshId(),
      onNavigate: ({ path }) => host.calls.push(`${host.publicId}:${path}`),
    })),
  );
  await settle();
  emit(iframes()[0]!, 'navigate', payload('navigate'));
  expect(host.calls).toEqual(['a:/d/costs']);
  scope.stop();
});

test('mounted and disposed in the same tick: the session function is never called', async () => {
  const session = vi.fn(async () => 's');
  const scope = effectScope();
  scope.run(() => usePlatformEmbed(box(), { surface: 'chat', baseUrl: BASE, session }));
  scope.stop();
  await settle();
  expect(session).not.toHaveBeenCalled();
  expect(iframes()).toHaveLength(0);
});

test('the container going away destroys the embed', async () => {
  const target = shallowRef<HTMLElement | null>(box());
  const scope = effectScope();
  const { state } = scope.run(() => usePlatformEmbed(target, { surface: 'chat', baseUrl: BASE }))!;
  await settle();
  expect(iframes()).toHaveLength(1);
  target.value = null;
  await settle();
  expect(iframes()).toHaveLength(0);
  expect(state.value.status).toBe('destroyed');
  scope.stop();
});
