// The import graph of one package's sources, with each file's level and any import circles.
//
// A file's level is one more than the highest level of the files it imports (type-only imports
// included: a file that needs another's type sits above it); a file that imports nothing of the
// package is level 1. A circle makes levels undefined: its files are listed and left out.
//
//   node scripts/importGraph.mjs [packages/core/src] [--max=9]
//
// Prints every file by level, the circles, the depth (the highest level), and each file raised by
// a type: a level higher than its value imports alone would give it, only for the files it
// imports nothing but types from. With --max it exits 1 when the depth is over it, or there is a
// circle or a file raised by a type of a file with code.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const args = process.argv.slice(2);
const root = resolve(args.find((a) => !a.startsWith('--')) ?? 'packages/core/src');
const max = Number(args.find((a) => a.startsWith('--max='))?.slice(6) ?? NaN);

const files = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts'))
  .map((e) => join(e.parentPath, e.name));

/** Whether an import or export statement brings only types (`import type`, or every name marked `type`). */
const typeOnly = (statement) => {
  const names = /\{([^}]*)\}/.exec(statement)?.[1];
  if (/^\s*(?:import|export)\s+type\b/.test(statement)) return true;
  if (!names || /^\s*import\s+\w/.test(statement.replace(/^\s*import\s+type\b/, ''))) return false;
  const list = names
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return list.length > 0 && list.every((n) => n.startsWith('type '));
};

/**
 * The package files `file` imports (relative specifiers only), type-only imports included, and
 * those it imports only types from.
 */
function importsOf(file) {
  const source = readFileSync(file, 'utf8');
  const found = new Set();
  const values = new Set();
  for (const [statement, spec] of source.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?from\s*['"](\.[^'"]+)['"]/g)) {
    const base = resolve(dirname(file), spec);
    const target = [base + '.ts', base + '.tsx', join(base, 'index.ts')].find((candidate) => files.includes(candidate));
    if (!target) continue;
    found.add(target);
    if (!typeOnly(statement)) values.add(target);
  }
  return { all: [...found], typesOnly: [...found].filter((f) => !values.has(f)) };
}

const imports = new Map(files.map((f) => [f, importsOf(f)]));
const graph = new Map(files.map((f) => [f, imports.get(f).all]));

// Strongly connected components (Tarjan): a component of more than one file is a circle; the
// levels are those of the graph of components, so the files above a circle still get one.
const components = [];
const componentOf = new Map();
{
  let index = 0;
  const indexOf = new Map();
  const low = new Map();
  const stack = [];
  const visit = (file) => {
    indexOf.set(file, index);
    low.set(file, index++);
    stack.push(file);
    for (const dep of graph.get(file)) {
      if (!indexOf.has(dep)) {
        visit(dep);
        low.set(file, Math.min(low.get(file), low.get(dep)));
      } else if (stack.includes(dep)) low.set(file, Math.min(low.get(file), indexOf.get(dep)));
    }
    if (low.get(file) === indexOf.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        component.push(member);
        componentOf.set(member, components.length);
      } while (member !== file);
      components.push(component);
    }
  };
  for (const f of files) if (!indexOf.has(f)) visit(f);
}
// Tarjan emits a component after every component it imports: one pass in that order.
const componentLevel = [];
components.forEach((component, i) => {
  let highest = 0;
  for (const file of component)
    for (const dep of graph.get(file)) if (componentOf.get(dep) !== i) highest = Math.max(highest, componentLevel[componentOf.get(dep)]);
  componentLevel[i] = highest + 1;
});
const level = new Map(files.map((f) => [f, componentLevel[componentOf.get(f)]]));
const circles = components.filter((c) => c.length > 1).map((c) => c.map((f) => relative(root, f)).sort());

const byLevel = new Map();
for (const [f, l] of level) byLevel.set(l, [...(byLevel.get(l) ?? []), relative(root, f)]);
const depth = Math.max(0, ...level.values());
console.log(`${relative(process.cwd(), root)}: ${files.length} files, depth ${depth}, ${circles.length} circle(s)`);
for (let l = depth; l >= 1; l--) console.log(`  level ${String(l).padStart(2)}: ${(byLevel.get(l) ?? []).sort().join(', ')}`);
for (const c of circles) console.log(`  circle: ${c.join(' <-> ')}`);
// A file raised by a type: its level would be lower without the files it imports only types
// from. Two cases: a type of a file with code (the type could live lower, in a types module), and
// a type of a types module (a file of declarations only, such as the controller's context, which
// sits above the types it gathers): listed apart, as the second is what a types module is for.
const declarationsOnly = (file) =>
  !readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
    .split('\n')
    .some((line) =>
      /^(?:export\s+)?(?:const|let|var|function|async|class|enum|default)\b|^export\s*(?:\*|\{(?!.*\btype\b))/.test(line.trim()),
    );
const raised = { code: [], declarations: [] };
for (const f of files) {
  const { all, typesOnly } = imports.get(f);
  const highest = (list) => Math.max(0, ...list.map((dep) => level.get(dep)));
  const withoutTypes = highest(all.filter((dep) => !typesOnly.includes(dep))) + 1;
  if (withoutTypes < level.get(f)) {
    const by = typesOnly.filter((dep) => level.get(dep) + 1 === level.get(f));
    const line = `${relative(root, f)} (level ${level.get(f)}, ${withoutTypes} without the types of ${by.map((dep) => relative(root, dep)).join(', ')})`;
    // (A types module itself gathers types from where they are declared: it is listed with the second.)
    raised[declarationsOnly(f) || by.every(declarationsOnly) ? 'declarations' : 'code'].push(line);
  }
}
for (const r of raised.code.sort()) console.log(`  raised by a type of a file with code: ${r}`);
for (const r of raised.declarations.sort()) console.log(`  raised by a type of a types module: ${r}`);
if (!Number.isNaN(max) && (depth > max || circles.length || raised.code.length)) process.exit(1);
