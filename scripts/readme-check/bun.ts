// readme-check: types=node,bun
// Prelude of the README's Bun blocks: Bun's own API (Bun.serve, Bun.env), from @types/bun
// (installed by compat/runtimes), in a program of their own.
