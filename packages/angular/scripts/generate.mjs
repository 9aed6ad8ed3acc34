#!/usr/bin/env node
/*
 * Generates the inputs and outputs of the surface components from the core, before ng-packagr
 * compiles them. Angular's compiler needs every input and output declared as a class member it
 * can read statically, so they cannot be created in a loop at run time as Vue's props are; they
 * are written out here instead, from the same declarations the core's other consumers read:
 *
 * src/generated/components.ts: the three components, each with one typed output per event of
 * the catalog (`EVENT_SCHEMAS`: `ready`, `view`, ..., `dashboard-loaded` as `dashboardLoaded`),
 * plus `event` for all, and one signal input per option of its surface.
 *
 * The options are the core's tables, as `bindingOptions()` lists them for every binding
 * (LAUNCH_OPTIONS, EMBED_OPTIONS and KEPT_STATE; the surfaces from LAUNCH_OPTIONS and
 * EMBED_OPTIONS), without `className` and `style`, which are the element's own `class` and
 * `style`. A flag of the tables (`attribute: 'flag'`) reads a static attribute as Angular reads
 * boolean attributes, a flag or name (`'flagOrName'`: `keepAlive`) as the custom elements do. Each input's type, whether it is required and its documentation come from
 * `PlatformEmbedInputs<S>` (src/types.ts: the core's embed options of the surface), read with the
 * TypeScript compiler from the core's published declarations; tables and types that disagree
 * fail the generation. test/options.test.ts proves that the built components' inputs and outputs
 * are the tables', test/types.ts that their types are the options'. The generated files are not
 * committed (src/generated is ignored): every build writes them anew.
 *
 * Usage: node scripts/generate.mjs   (from packages/angular; the core must be built)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { EMBED_OPTIONS, EVENT_SCHEMAS, LAUNCH_OPTIONS, SURFACES, bindingOptions, eventProp } from '@platform-embed/core';

const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const generatedDir = join(packageRoot, 'src/generated');

/** What each surface component says about itself; everything else is derived. */
const COMPONENTS = {
  dashboard: {
    className: 'PlatformDashboard',
    doc: [
      'Embeds a published dashboard. Inputs are declarative: the core decides what a change means.',
      'A new `publicId`, `baseUrl` or launch option (`allowExport`, ...) reloads with a fresh session;',
      '`colorScheme`, `theme`, `locale`, `filters` and `path` are sent as actions to the same iframe;',
      'a new `session` function is used without a reload. What the host set (by input or through',
      '`handle()`) comes back after every reload. The element is the container: give it a height.',
      '@example',
      '```html',
      '<platform-embed-dashboard',
      '  baseUrl="https://acme.platform.example"',
      '  publicId="sales-overview"',
      '  [session]="session"',
      "  [colorScheme]=\"dark() ? 'dark' : 'light'\"",
      '  (drilldown)="onDrilldown($event)"',
      '  style="height: 600px"',
      '/>',
      '```',
    ],
  },
  chat: {
    className: 'PlatformChat',
    doc: ['Embeds the standalone analytics chat (private mode without `session`). Same rules as {@link PlatformDashboard}.'],
  },
  app: {
    className: 'PlatformApp',
    doc: ['Embeds the creator-mode app of a deployment (needs `session`). Same rules as {@link PlatformDashboard}.'],
  },
};

/** The output of an event: `dashboard-loaded` is `dashboardLoaded` (as src/platformEmbed.ts's `outputName`). */
const outputName = (event) => {
  const prop = eventProp(event);
  return prop[2].toLowerCase() + prop.slice(3);
};

/** The transform (src/attributes.ts) of the inputs whose attribute the tables read this way: a static attribute read as the custom elements read it. */
const TRANSFORMS = { flag: 'flag', flagOrName: 'flagOrName' };

const jsdoc = (lines, indent = '') =>
  lines.length ? `${indent}/**\n${lines.map((line) => `${indent} *${line ? ` ${line}` : ''}`).join('\n')}\n${indent} */\n` : '';

/** The options of each surface as the TypeScript compiler reads `PlatformEmbedInputs<S>`: name, requiredness, documentation. */
function readOptions() {
  const probeFile = join(packageRoot, '__options_probe__.ts');
  const probe = [
    "import type { PlatformEmbedInputs } from './src/types';",
    ...SURFACES.map((surface) => `export declare const ${surface}: PlatformEmbedInputs<'${surface}'>;`),
  ].join('\n');
  const options = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (file) => file === probeFile || fileExists.call(host, file);
  host.readFile = (file) => (file === probeFile ? probe : readFile.call(host, file));
  host.getSourceFile = (file, language, ...rest) =>
    file === probeFile ? ts.createSourceFile(file, probe, language) : getSourceFile.call(host, file, language, ...rest);
  const program = ts.createProgram([probeFile], options, host);
  const problems = ts.getPreEmitDiagnostics(program);
  if (problems.length)
    throw new Error(
      `cannot read the option types (is @platform-embed/core built? pnpm --filter @platform-embed/core build):\n${ts.formatDiagnostics(problems, host)}`,
    );
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(probeFile)));
  return Object.fromEntries(
    SURFACES.map((surface) => {
      const symbol = exports.find((s) => s.name === surface);
      const properties = checker.getPropertiesOfType(checker.getTypeOfSymbol(symbol));
      const list = properties.map((property) => ({
        name: property.name,
        required: (property.flags & ts.SymbolFlags.Optional) === 0,
        doc: docOf(property, checker),
      }));
      return [surface, list];
    }),
  );
}

/** The option's documentation in the core, with its tags (`@default`, `@example`). */
function docOf(property, checker) {
  const text = ts.displayPartsToString(property.getDocumentationComment(checker));
  const tags = property.getJsDocTags(checker).map((tag) => `@${tag.name}${tag.text ? ` ${ts.displayPartsToString(tag.text)}` : ''}`);
  return [text, ...tags].filter(Boolean).join('\n').split('\n');
}

/** The options of a surface from the tables (see the header), in their order. */
function tableOptions(surface) {
  const surfacesOf = (name) => LAUNCH_OPTIONS[name]?.surfaces ?? EMBED_OPTIONS[name]?.surfaces ?? SURFACES;
  return bindingOptions().filter(({ name }) => name !== 'className' && name !== 'style' && surfacesOf(name).includes(surface));
}

/** The inputs of each surface: the tables' options with what the types say of them; fails when the two disagree. */
function inputsBySurface(typedBySurface) {
  return Object.fromEntries(
    SURFACES.map((surface) => {
      const typed = new Map(typedBySurface[surface].map((option) => [option.name, option]));
      const options = tableOptions(surface);
      const untyped = options.filter(({ name }) => !typed.has(name)).map(({ name }) => name);
      const unlisted = [...typed.keys()].filter((name) => !options.some((option) => option.name === name));
      if (untyped.length || unlisted.length)
        throw new Error(
          `the core's tables and PlatformEmbedInputs<'${surface}'> disagree: ${[
            untyped.length && `in the tables only: ${untyped.join(', ')}`,
            unlisted.length && `in the types only: ${unlisted.join(', ')}`,
          ]
            .filter(Boolean)
            .join('; ')}`,
        );
      return [surface, options.map(({ name, attribute }) => ({ ...typed.get(name), transform: TRANSFORMS[attribute] }))];
    }),
  );
}

/** The import of the attribute transforms (src/attributes.ts) that `options` use, if any. */
function transformsImport(options) {
  const used = [...new Set(options.map((option) => option.transform).filter(Boolean))].sort();
  return used.length ? `import { ${used.join(', ')} } from '../attributes';\n` : '';
}

/** The declaration of an option's input; `type` is the options type it reads the option's type from. */
function inputDeclaration({ name, required, transform, doc }, type) {
  const declaration = required
    ? `input.required<${type}['${name}']>()`
    : transform
      ? `input<${type}['${name}'], ${type}['${name}'] | string>(undefined, { transform: ${transform} })`
      : `input<${type}['${name}']>()`;
  return `${jsdoc(doc, '  ')}  readonly ${name} = ${declaration};`;
}

/** One output per event of the catalog, typed with its payload, and `event` for every envelope. */
const OUTPUTS = [
  ...Object.keys(EVENT_SCHEMAS).map(
    (event) =>
      `${jsdoc([`The \`${event}\` event of the embed, with its validated payload.`], '  ')}  readonly ${outputName(event)} = output<EventMap['${event}']>();`,
  ),
  `  /** Every valid event envelope, known or not, after its own output. */\n  readonly event = output<Parameters<AnyEventHandler>[0]>();`,
];

/*
 * Each component declares all it has itself, without a base class (a component that extends a
 * class makes every app ship Angular's inheritance of definitions); what they share is what
 * \`ɵembed()\` (src/platformEmbed.ts) makes for each, and the TEMPLATE.
 */
function componentsFile(optionsBySurface) {
  const classes = SURFACES.map((surface) => {
    const { className, doc } = COMPONENTS[surface];
    return `${jsdoc(doc)}@Component({
  selector: 'platform-embed-${surface}',
  template: TEMPLATE,
  imports: [ɵPlatformEmbedView],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: {
    style: HOST_STYLE,
    'data-platform-embed': '${surface}',
    '[attr.aria-busy]': 'embed.busy() || null',
  },
})
export class ${className} implements PlatformEmbed<'${surface}'> {
  /** @internal */
  protected readonly embed = ɵembed(this, '${surface}');
  /** The embed's state: \`idle\` until the first render in the browser (and on the server), then \`loading\`, \`ready\`, \`error\` or \`destroyed\`. */
  readonly state = this.embed.state;
  /** The core's controller (actions, \`update()\`, \`reload()\`, \`on()\`, ...), \`null\` until the first render in the browser and after destroy. */
  readonly handle = this.embed.handle;
${OUTPUTS.join('\n')}
${optionsBySurface[surface].map((option) => inputDeclaration(option, `PlatformEmbedInputs<'${surface}'>`)).join('\n')}

  /** @internal Every input is an option: a change is an update after the next render. */
  ngOnChanges(changes: SimpleChanges): void {
    this.embed.changed(changes);
  }
}
`;
  });
  return `// Generated by scripts/generate.mjs from the core's event catalog (EVENT_SCHEMAS) and option types: do not edit.
import { ChangeDetectionStrategy, Component, input, output, type SimpleChanges } from '@angular/core';
import type { AnyEventHandler, EventMap } from '@platform-embed/core';
${transformsImport(SURFACES.flatMap((surface) => optionsBySurface[surface]))}import { HOST_STYLE, TEMPLATE, ɵembed, type PlatformEmbed } from '../platformEmbed';
import { ɵPlatformEmbedView } from '../templates';
import type { PlatformEmbedInputs } from '../types';

${classes.join('\n')}`;
}

const optionsBySurface = inputsBySurface(readOptions());
rmSync(generatedDir, { recursive: true, force: true });
mkdirSync(generatedDir, { recursive: true });
writeFileSync(join(generatedDir, 'components.ts'), componentsFile(optionsBySurface));
const counts = SURFACES.map((surface) => `${surface} ${optionsBySurface[surface].length}`).join(', ');
console.log(`generated src/generated: ${Object.keys(EVENT_SCHEMAS).length + 1} outputs; inputs: ${counts}`);
