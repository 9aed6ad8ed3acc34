import { StrictMode, useState } from 'react';
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { listenerCount, type EmbedStatus } from '@platform-embed/core';
import { usePlatformEmbed, type PlatformEmbedOptions } from '../src/index';
import { BASE, emit, freshId, iframes, payload, settle } from '../../core/test/helpers';

afterEach(async () => {
  cleanup();
  await settle();
  expect(listenerCount()).toBe(0);
});

function Own(props: { options: PlatformEmbedOptions<'dashboard'>; seen: EmbedStatus[]; show?: boolean }) {
  const [box, setBox] = useState<HTMLElement | null>(null);
  const { state, embed } = usePlatformEmbed(box, props.options);
  props.seen.push(state.status);
  return (
    <section>
      <button disabled={!embed} onClick={() => embed!.refresh()}>
        {state.status}
      </button>
      {props.show !== false && <div ref={setBox} id="own" />}
    </section>
  );
}

test('follows the state with useSyncExternalStore in a container the host renders', async () => {
  const seen: EmbedStatus[] = [];
  const options = { surface: 'dashboard', baseUrl: BASE, publicId: 'sales', session: freshId() } as const;
  const { getByRole, rerender } = render(
    <StrictMode>
      <Own options={options} seen={seen} />
    </StrictMode>,
  );
  await act(settle);
  expect(document.querySelector('#own > iframe')).not.toBeNull();
  expect(getByRole('button').textContent).toBe('loading');
  act(() => emit(iframes()[0]!, 'ready', payload('ready')));
  expect(getByRole('button').textContent).toBe('ready');
  expect(seen[0]).toBe('idle');
  expect(seen.at(-1)).toBe('ready');

  const post = vi.spyOn(iframes()[0]!.contentWindow!, 'postMessage');
  act(() => getByRole('button').click());
  expect(post).toHaveBeenCalledWith(expect.objectContaining({ type: 'platform:action:refresh' }), BASE);

  rerender(
    <StrictMode>
      <Own options={options} seen={seen} show={false} />
    </StrictMode>,
  );
  await settle();
  expect(iframes()).toHaveLength(0);
  expect(listenerCount()).toBe(0);
});

test('a fatal error event puts the state in error with the code', async () => {
  const seen: EmbedStatus[] = [];
  const { getByRole } = render(
    <Own options={{ surface: 'dashboard', baseUrl: BASE, publicId: 'sales', session: freshId() }} seen={seen} />,
  );
  await act(settle);
  act(() => emit(iframes()[0]!, 'error', { message: 'session expired', fatal: true }));
  expect(getByRole('button').textContent).toBe('error');
});

test('accepts a ref object as target', async () => {
  function WithRef() {
    const [ref] = useState(() => ({ current: null as HTMLDivElement | null }));
    const { state } = usePlatformEmbed(ref, { surface: 'chat', baseUrl: BASE });
    return <div ref={ref} data-status={state.status} />;
  }
  const { container } = render(<WithRef />);
  await act(settle);
  expect(iframes().map((f) => f.src)).toEqual([`${BASE}/embed/chat`]);
  expect(container.firstElementChild!.getAttribute('data-status')).toBe('loading');
});
