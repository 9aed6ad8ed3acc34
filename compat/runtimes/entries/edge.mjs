// Vercel's Edge runtime (edge-runtime): the checks bundled with @platform-embed/server into one
// script, evaluated in an EdgeRuntime context, which calls the global this sets.
import { runChecks } from '../checks.mjs';

globalThis.runRuntimeChecks = runChecks;
