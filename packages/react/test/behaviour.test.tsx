import { StrictMode } from 'react';
import { act, cleanup, render, type RenderResult } from '@testing-library/react';
import { afterEach, expect } from 'vitest';
import { listenerCount, type EmbedHandle } from '@platform-embed/core';
import { PlatformDashboard, type PlatformEmbedProps } from '../src/index';
import { behaviourTable, type Options } from '../../core/test/behaviour';
import { settle } from '../../core/test/helpers';

// The same table as the core's, through props, under StrictMode.
const ref = { current: null as EmbedHandle<'dashboard'> | null };
let view: RenderResult | undefined;
const ui = (options: Options) => (
  <StrictMode>
    <PlatformDashboard ref={ref} {...(options as PlatformEmbedProps<'dashboard'>)} />
  </StrictMode>
);

afterEach(async () => {
  cleanup();
  await settle();
  expect(listenerCount()).toBe(0);
});

behaviourTable({
  name: 'react',
  async mount(options) {
    view = render(ui(options));
    await act(settle);
  },
  async update(options) {
    view!.rerender(ui(options));
    await act(settle);
  },
  handle: () => ref.current!,
  async unmount() {
    view!.unmount();
    await settle();
  },
});
