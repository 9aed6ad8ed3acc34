/* eslint-disable @typescript-eslint/no-unused-vars -- the names are used by the README blocks this prelude goes before */
// Prelude of the README's Nuxt blocks: the server helpers a Nuxt server route gets as
// auto-imports (from h3), and nuxt.config.ts's `defineNuxtConfig`, typed as far as the blocks use them.
interface H3Event {
  readonly path: string;
}
declare function defineEventHandler<T>(handler: (event: H3Event) => T): (event: H3Event) => T;
declare function toWebRequest(event: H3Event): Request;
declare function defineNuxtConfig(config: {
  vite?: { optimizeDeps?: { include?: string[] } };
  routeRules?: Record<string, { headers?: Record<string, string> }>;
}): unknown;
