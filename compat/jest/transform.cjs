/* global module, require */
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS transformer, as Jest loads it */
// A minimal Jest transformer for this folder: TypeScript and TSX with esbuild, single-file Vue
// components with @vue/compiler-sfc (template inlined), both to CommonJS. A host project would
// use babel-jest, ts-jest or @vue/vue3-jest instead.
const { transformSync } = require('esbuild');

const toCommonJs = (code, loader, sourcefile) =>
  transformSync(code, { loader, sourcefile, format: 'cjs', target: 'es2022', jsx: 'automatic', sourcemap: 'inline' }).code;

module.exports = {
  process(source, filename) {
    if (!filename.endsWith('.vue')) return { code: toCommonJs(source, filename.endsWith('x') ? 'tsx' : 'ts', filename) };
    const { parse, compileScript } = require('vue/compiler-sfc');
    const { descriptor } = parse(source, { filename });
    const script = compileScript(descriptor, { id: filename, inlineTemplate: true });
    return { code: toCommonJs(script.content, script.lang === 'ts' ? 'ts' : 'js', filename) };
  },
};
