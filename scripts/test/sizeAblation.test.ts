import { expect, test } from 'vitest';
// @ts-expect-error -- a Node script without declarations
import { PARTS, applyEdits, readSources } from '../sizeAblation.mjs';

type Edits = [text: string, replacement: string][];
const parts = Object.entries(PARTS as Record<string, Edits>);

/*
 * The size ablation (docs/size-budget.md) takes each part out of the sources with a few text
 * edits. A restructuring that moves or renames what an edit names must fail here, not leave
 * the table measuring nothing (the script also refuses a removal that saves nothing when run).
 */

test.each(parts)('the edits of "%s" each find their text exactly once', (_, edits) => {
  const sources = readSources() as Map<string, string>;
  const edited = applyEdits(sources, edits) as Map<string, string>;
  const changed = [...edited].filter(([path, code]) => sources.get(path) !== code);
  expect(changed.length).toBeGreaterThan(0);
});

test('an edit whose text is gone, or occurs twice, stops the run naming the text', () => {
  const sources = new Map([
    ['core/src/a.ts', 'const twice = 1;\nconst twice = 1;\n'],
    ['core/src/b.ts', 'export const once = 2;\n'],
  ]);
  expect(() => applyEdits(sources, [['const gone = 3;', '']])).toThrow(/occurs 0 times \(in no source file\), not once:\nconst gone = 3;/);
  expect(() => applyEdits(sources, [['const twice = 1;', '']])).toThrow(/occurs 2 times \(in core\/src\/a\.ts\)/);
  expect(applyEdits(sources, [['export const once = 2;', 'export const once = 3;']]).get('core/src/b.ts')).toBe('export const once = 3;\n');
});
