import * as React from 'react';
import { StrictMode, type ComponentType, type ReactNode } from 'react';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, expect, test } from 'vitest';
import { listenerCount, type EmbedHandle } from '@platform-embed/core';
import { PlatformDashboard } from '../src/index';
import { BASE, emit, iframes, mintSessions, payload, settle } from '../../core/test/helpers';

/*
 * Hidden is not gone: a route wrapped in <Activity mode="hidden"> (what Next.js 16 does to a
 * route left, with cacheComponents) keeps its DOM and cleans up its effects; the embed stays,
 * with its iframe and its session, and goes on when shown again. Only a real removal destroys it.
 */

afterEach(async () => {
  cleanup();
  await settle();
  expect(listenerCount()).toBe(0);
});

// React 19.2+ (the React 18 project has none).
const Activity = (React as unknown as { Activity?: ComponentType<{ mode: 'visible' | 'hidden'; children: ReactNode }> }).Activity;
const session = mintSessions();
function Route({ mode, scheme }: { mode: 'visible' | 'hidden'; scheme: 'light' | 'dark' }) {
  const Hideable = Activity!;
  return (
    <StrictMode>
      <Hideable mode={mode}>
        <Sales scheme={scheme} />
      </Hideable>
    </StrictMode>
  );
}
let handle: EmbedHandle<'dashboard'> | null = null;
function Sales({ scheme }: { scheme: 'light' | 'dark' }) {
  return <PlatformDashboard ref={(h) => void (h && (handle = h))} baseUrl={BASE} publicId="sales" session={session} colorScheme={scheme} />;
}

test.skipIf(!Activity)(
  '<Activity mode="hidden"> then "visible": the same handle, iframe and session; a change made meanwhile arrives as an action',
  async () => {
    const view = render(<Route mode="visible" scheme="light" />);
    await act(settle);
    const first = handle!;
    const iframe = iframes()[0]!;
    emit(iframe, 'ready', payload('ready'));
    view.rerender(<Route mode="hidden" scheme="light" />);
    await act(settle);
    expect(first.getState().status).toBe('ready');
    expect(iframes()).toEqual([iframe]);
    const post: unknown[] = [];
    iframe.contentWindow!.postMessage = (m: unknown) => void post.push(m);
    view.rerender(<Route mode="visible" scheme="dark" />);
    await act(settle);
    expect(handle).toBe(first);
    expect(iframes()).toEqual([iframe]);
    expect(session).toHaveBeenCalledTimes(1);
    expect(post).toEqual([expect.objectContaining({ type: 'platform:action:set-color-scheme', payload: { scheme: 'dark' } })]);
    // Hidden, then the whole route really removed: destroyed, nothing left.
    view.rerender(<Route mode="hidden" scheme="dark" />);
    await act(settle);
    view.unmount();
    await settle();
    expect(first.getState().status).toBe('destroyed');
  },
);
