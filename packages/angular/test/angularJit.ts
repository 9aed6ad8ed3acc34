import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { constructorParametersDownlevelTransform } from '@angular/compiler-cli/private/tooling';
import type { Plugin } from 'vite';

/*
 * Compiles the Angular test files for the JIT compiler, as the Angular CLI does for tests run in
 * JIT mode: TypeScript with Angular's JIT transform, which turns the members only Angular's own
 * compiler understands (signal `input()`, `output()`, `contentChild()`, ...) and the decorators'
 * constructor parameters into metadata the JIT compiler reads at run time. Without it a test
 * component's `input()` would not be an input. One TypeScript program for every file of
 * tsconfig.test.json, created at the first file and reused.
 */

const tsconfigPath = resolve(import.meta.dirname, '../tsconfig.test.json');

function loadProgram(): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(tsconfigPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error(`cannot read ${tsconfigPath}`);
  const options: ts.CompilerOptions = {
    ...config.options,
    noEmit: false,
    declaration: false,
    sourceMap: false,
    inlineSourceMap: true,
    inlineSources: true,
  };
  return ts.createProgram(config.fileNames, options);
}

/** A Vite plugin compiling packages/angular/test/*.ts with Angular's JIT transform. */
export function angularJit(): Plugin {
  const testDir = dirname(tsconfigPath) + '/test/';
  let program: ts.Program | undefined;
  return {
    name: 'angular-jit',
    enforce: 'pre',
    transform(_code, id) {
      if (!id.startsWith(testDir) || !id.endsWith('.ts')) return null;
      program ??= loadProgram();
      const source = program.getSourceFile(id);
      if (!source) throw new Error(`${id} is not part of ${tsconfigPath}`);
      let output = '';
      program.emit(source, (name, text) => name.endsWith('.js') && (output = text), undefined, false, {
        before: [constructorParametersDownlevelTransform(program)],
      });
      return { code: output, map: null };
    },
  };
}
