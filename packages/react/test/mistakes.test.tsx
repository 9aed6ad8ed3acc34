import { StrictMode, useState } from 'react';
import { act, cleanup, fireEvent, render, screen, type RenderResult } from '@testing-library/react';
import { afterEach, expect } from 'vitest';
import { IDLE, listenerCount, type EmbedError, type EmbedHandle } from '@platform-embed/core';
import { PlatformDashboard, type PlatformEmbedProps } from '../src/index';
import type { Options } from '../../core/test/behaviour';
import { mistakeTable, type MistakeDriver } from '../../core/test/mistakeTable';
import { nullTable } from '../../core/test/nullTable';
import { settle } from '../../core/test/helpers';

// The mistake table through props, under StrictMode, in a host app with state of its own.
const ref = { current: null as EmbedHandle<'dashboard'> | null };
let view: RenderResult | undefined;
let hear: ((payload: Record<string, unknown>) => void) | undefined;
// The error the component's errorFallback was given last: without a controller, its state.
let shown: EmbedError | undefined;

function App({ options }: { options: Options }) {
  const [clicks, setClicks] = useState(0);
  return (
    <main>
      <button onClick={() => setClicks(clicks + 1)}>clicked {clicks}</button>
      <PlatformDashboard
        ref={ref}
        {...(options as PlatformEmbedProps<'dashboard'>)}
        onError={hear}
        errorFallback={({ error }) => ((shown = error), (<p data-testid="error-ui">{error.message}</p>))}
      />
    </main>
  );
}
const ui = (options: Options) => (
  <StrictMode>
    <App options={options} />
  </StrictMode>
);

afterEach(async () => {
  cleanup();
  await settle();
  expect(listenerCount()).toBe(0);
});

const driver: MistakeDriver = {
  name: 'react',
  async render(options, onError) {
    hear = onError;
    view = render(ui(options));
    await act(settle);
  },
  async update(options) {
    view!.rerender(ui(options));
    await act(settle);
  },
  async click() {
    fireEvent.click(screen.getByRole('button', { name: /clicked/ }));
    await act(settle);
    return screen.getByRole('button', { name: /clicked/ }).textContent!;
  },
  state: () =>
    ref.current?.getState() ?? (shown && screen.queryByTestId('error-ui') ? { status: 'error', error: shown, ready: null } : IDLE),
  errorUi: () => screen.queryByTestId('error-ui')?.textContent ?? null,
  async unmount() {
    view?.unmount();
    view = undefined;
    hear = shown = undefined;
    await settle();
  },
};
mistakeTable(driver);
nullTable(driver);
