import { StrictMode } from 'react';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { listenerCount, parkedCount, releaseEmbeds, type EmbedHandle } from '@platform-embed/core';
import { PlatformDashboard } from '../src/index';
import { BASE, emit, iframes, mintSessions, payload, settle, withMoveBefore } from '../../core/test/helpers';

/*
 * What a real app's first week does to the React binding, found by the attack of h/attack (round 2).
 */

let restore: (() => void) | undefined;
afterEach(async () => {
  cleanup();
  releaseEmbeds();
  restore?.();
  await settle();
  expect(listenerCount()).toBe(0);
});

test('a key change of a keepAlive dashboard (one commit: the old one unmounts, the new one mounts): the new one adopts the embed, no second session (was: a second session and frame, the first left parked)', async () => {
  restore = withMoveBefore().restore;
  const session = mintSessions();
  const handles = new Set<EmbedHandle>();
  const ui = (key: string) => (
    <StrictMode>
      <PlatformDashboard key={key} ref={(h) => void (h && handles.add(h))} baseUrl={BASE} publicId="sales" session={session} keepAlive />
    </StrictMode>
  );
  const view = render(ui('route-a'));
  await act(settle);
  const [iframe] = iframes();
  emit(iframe!, 'ready', payload('ready'));
  view.rerender(ui('route-b'));
  await act(settle);
  expect(handles.size).toBe(1);
  expect(session).toHaveBeenCalledTimes(1);
  expect(iframes()).toEqual([iframe]);
  expect([...handles][0]!.getState().status).toBe('ready');
  expect(parkedCount()).toBe(0);
});

test('two keepAlive dashboards of one name on screen; one swapped for a third in one commit: the third adopts it (was: a third session, one left parked)', async () => {
  restore = withMoveBefore().restore;
  const session = mintSessions();
  const App = ({ shown }: { shown: string[] }) => (
    <StrictMode>
      {shown.map((key) => (
        <PlatformDashboard key={key} baseUrl={BASE} publicId="sales" session={session} keepAlive />
      ))}
    </StrictMode>
  );
  const view = render(<App shown={['a', 'b']} />);
  await act(settle);
  iframes().forEach((frame) => emit(frame, 'ready', payload('ready')));
  view.rerender(<App shown={['b', 'c']} />);
  await act(settle);
  expect(session).toHaveBeenCalledTimes(2);
  expect(iframes()).toHaveLength(2);
  expect(parkedCount()).toBe(0);
});
