import { resolve } from 'node:path';
import { expect, test } from 'vitest';
// @ts-expect-error -- a Node script without declarations
import { attributedBundle } from '../sizeByFile.mjs';

/*
 * What a host's production bundle of `embedDashboard` holds (built from the sources as the core's
 * production build ships it: scripts/sizeByFile.mjs): only what production reads. The option
 * tables' data for development, the bindings and the types stays out (production reads the lean
 * tables beside them), and no internal name of the controller's context survives (the build
 * shortens every `_` name).
 */

const { code } = (await attributedBundle(resolve(import.meta.dirname, '../../packages/core/src'))) as { code: string };

test.each([
  ['the launch options’ surfaces (type-only data)', '"dashboard","app"]'],
  ['the time grains (a development rule)', 'quarter'],
  ['the rules of the filters (a development rule)', 'JSON object such as'],
  ['the rule of the container (a development rule)', 'element or CSS selector'],
  ['the attribute kinds (the bindings’ data)', 'flagOrName'],
  ['an attribute’s name (the bindings’ data)', 'iframe-title'],
  ['the fields of the tables production does not read', 'attribute:'],
  ['the rule engine over a schema of the checks of every build', 'always'],
])('no %s', (_, text) => {
  expect(code).not.toContain(text);
});

test('the checks of every build are there, in their words', () => {
  expect(code).toContain('a public id such as "sales-overview"');
  expect(code).toContain('positive integer');
});

test('no internal name of the controller survives', () => {
  expect(code.match(/\._[a-z]\w*/g) ?? []).toEqual([]);
});
