// Node, Bun and Deno: the checks imported as they are, @platform-embed/server resolved by package
// name from node_modules (the built package, as a user installs it). Targets in the first argument;
// prints the results as one JSON line.
import { CHECKS, runChecks } from '../checks.mjs';
import { NODE_HTTP_CHECKS } from '../nodeHttpChecks.mjs';

const argument = globalThis.Deno ? globalThis.Deno.args[0] : globalThis.process.argv[2];
const targets = JSON.parse(argument);
Object.assign(CHECKS, NODE_HTTP_CHECKS);
console.log(JSON.stringify(await runChecks(targets)));
