import { afterAll, expect, test, vi } from 'vitest';
import { EmbedError } from '../../packages/core/src/errors';

// The console beneath the unit tests' setup file, which it writes through (set before it loads).
const { underlying, original } = vi.hoisted(() => {
  const original = console.error;
  const write = vi.fn();
  console.error = write;
  return { underlying: write, original };
});
afterAll(() => {
  console.error = original;
});
const { isUnheardErrorReport } = await import('../vitestSetup');

test("the SDK's report of an error nobody handles is held back on a pass; anything else is written", () => {
  const report = new EmbedError('fatal', 'the embed failed: down');
  expect(isUnheardErrorReport([report])).toBe(true);
  console.error(report);
  expect(underlying).not.toHaveBeenCalled();

  console.error('[platform-embed] handler threw', new Error('bug'));
  console.error(new Error('[platform-embed] not an EmbedError'));
  console.error(report, 'and more');
  expect(underlying.mock.calls).toEqual([
    ['[platform-embed] handler threw', new Error('bug')],
    [new Error('[platform-embed] not an EmbedError')],
    [report, 'and more'],
  ]);
});
