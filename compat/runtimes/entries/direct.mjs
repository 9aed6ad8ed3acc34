// Node, Bun and Deno: the checks imported as they are, @platform-embed/server resolved by package
// name from node_modules (the built package, as a user installs it). Targets in the first argument;
// prints the results as one JSON line.
import { CHECKS, runChecks } from '../checks.mjs';
import { NODE_HTTP_CHECKS } from '../nodeHttpChecks.mjs';

const argument = globalThis.Deno ? globalThis.Deno.args[0] : globalThis.process.argv[2];
const targets = JSON.parse(argument);
Object.assign(CHECKS, NODE_HTTP_CHECKS, {
  // Not the sources: Bun follows a tsconfig's paths (this folder's has none), Deno an import map.
  async 'imports @platform-embed/server as built (dist/index.mjs)'() {
    const resolved = import.meta.resolve('@platform-embed/server');
    if (!resolved.endsWith('/packages/server/dist/index.mjs')) throw new Error(`resolved to ${resolved}`);
  },
});
console.log(JSON.stringify(await runChecks(targets)));
