// @vitest-environment node
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { VERSION } from '@angular/core';
import { expect, test } from 'vitest';

// An app's build links the partially compiled package with the linker of its own Angular
// (@angular/compiler-cli): the project's Angular (21, and 20 in the angular@20 project) turns
// every declaration of the built package into a full definition.
const dist = fileURLToPath(new URL('../dist/fesm2022/platform-embed-angular.mjs', import.meta.url));

test(`Angular ${VERSION.major}'s linker links the built package`, { timeout: 60_000 }, async () => {
  const { VERSION: compiler } = await import('@angular/compiler-cli');
  expect(compiler.major).toBe(VERSION.major);
  const { default: linker } = await import('@angular/compiler-cli/linker/babel');
  type Transform = (code: string, options: object) => Promise<{ code?: string | null } | null>;
  const { transformAsync } = createRequire(import.meta.url)('@babel/core') as { transformAsync: Transform };
  const linked = await transformAsync(readFileSync(dist, 'utf8'), { filename: dist, plugins: [linker], configFile: false, babelrc: false });
  expect(linked?.code).not.toContain('ɵɵngDeclare');
  for (const definition of ['ɵɵdefineComponent', 'ɵɵdefineDirective']) expect(linked?.code).toContain(definition);
  expect(linked?.code?.match(/ɵɵdefineComponent\(/g)).toHaveLength(3);
});
