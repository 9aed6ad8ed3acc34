// readme-check: types=node,@cloudflare/workers-types
// Prelude of the README's Cloudflare Worker blocks: the Workers runtime's types (ExportedHandler,
// the bindings' env), from @cloudflare/workers-types (installed by compat/runtimes), in a program
// of their own.
