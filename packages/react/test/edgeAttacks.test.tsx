import { StrictMode, useRef } from 'react';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { listenerCount, parkedCount, releaseEmbeds, type EmbedHandle } from '@platform-embed/core';
import { PlatformDashboard, usePlatformEmbed } from '../src/index';
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

// h/attack3: a container the host renders itself with a text child that comes and goes (a loading
// text) is written by React as the container's text (ContentReset), which takes the iframe out.
// In a browser (an iframe out of the document has no window, mimicked here) every commit's
// update reloaded it, each time with a fresh session, and the next ready's commit took it out
// again: a loop (6 sessions in 5 readies, tried). Now the embed fails, saying why, once.
test('usePlatformEmbed in a container with a loading text child: the iframe taken out at ready fails the embed, one session, no loop', async () => {
  const own = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')!;
  Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
    ...own,
    get(this: HTMLIFrameElement) {
      return this.isConnected ? own.get!.call(this) : null;
    },
  });
  restore = () => Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', own);
  const session = mintSessions();
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  let embed: EmbedHandle | null = null;
  function Sales() {
    const box = useRef<HTMLDivElement>(null);
    const result = usePlatformEmbed(box, { surface: 'dashboard', baseUrl: BASE, publicId: 'sales', session });
    embed = result.embed;
    return <div ref={box}>{result.state.status == 'ready' ? null : 'Loading…'}</div>;
  }
  const view = render(<Sales />);
  const box = view.container.firstElementChild!;
  for (let i = 0; i < 3; i++) {
    await act(settle);
    const iframe = box.querySelector('iframe');
    if (iframe) await act(async () => emit(iframe, 'ready', payload('ready')));
  }
  await act(settle);
  expect(session).toHaveBeenCalledTimes(1);
  expect(embed!.getState().error).toMatchObject({ code: 'no-container', message: expect.stringContaining('took the iframe out') });
  expect(error).toHaveBeenCalledTimes(1);
  error.mockRestore();
});
