// readme-check: types=node,deno
// Prelude of the README's Deno blocks: Deno's own API (Deno.serve, Deno.env), from @types/deno
// (installed by compat/runtimes), in a program of their own.
