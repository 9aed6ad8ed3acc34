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

/*
 * What the binding must not make an app ship, gzip in a fresh `ng new --ssr` app (see
 * scripts/angularWeight.mjs): Angular's query engine (`contentChild`, ~2.9 KB alone), DI
 * providers (~0.8 KB), the inheritance of definitions (a component that extends a class, ~0.6 KB),
 * `NgTemplateOutlet` and with it @angular/common (~0.8 KB), `afterRenderEffect` (~0.7 KB) or
 * `effect` (~0.5 KB), `computed` (~0.3 KB), `reflectComponentType` (~0.1 KB). Each has a lighter
 * way the app has anyway (src/platformEmbed.ts, src/templates.ts).
 */
test(
  `linked by Angular ${VERSION.major}, the package uses none of the Angular features that would weigh in an app`,
  { timeout: 60_000 },
  async () => {
    const { default: linker } = await import('@angular/compiler-cli/linker/babel');
    type Transform = (code: string, options: object) => Promise<{ code?: string | null } | null>;
    const { transformAsync } = createRequire(import.meta.url)('@babel/core') as { transformAsync: Transform };
    const linked = (await transformAsync(readFileSync(dist, 'utf8'), {
      filename: dist,
      plugins: [linker],
      configFile: false,
      babelrc: false,
    }))!.code!;
    const instructions = [
      'ɵɵcontentQuery',
      'ɵɵcontentQuerySignal',
      'ɵɵviewQuerySignal',
      'ɵɵInheritDefinitionFeature',
      'ɵɵgetInheritedFactory',
      'ɵɵProvidersFeature',
    ];
    expect(instructions.filter((name) => linked.includes(name))).toEqual([]);
    const imported = [...linked.matchAll(/import \{([^}]*)\} from '@angular\/core'/g)].flatMap(([, names]) =>
      names!.split(',').map((name) => name.trim()),
    );
    const heavy = [
      'contentChild',
      'contentChildren',
      'viewChild',
      'afterRenderEffect',
      'effect',
      'computed',
      'reflectComponentType',
      'booleanAttribute',
    ];
    expect(imported.filter((name) => heavy.includes(name))).toEqual([]);
    expect(linked).not.toContain('@angular/common');
  },
);
