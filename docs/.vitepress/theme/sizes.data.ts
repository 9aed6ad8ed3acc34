// The sizes of what a host ships, as `pnpm figures` wrote them from scripts/size.mjs
// (docs/data/sizes.json; `pnpm check:figures` fails when they are not the sizes measured now).
import { readFileSync } from 'node:fs';
import { defineLoader } from 'vitepress';

/** One bundle of scripts/size.mjs, in bytes. */
export interface Bundle {
  label: string;
  min: number;
  gzip: number;
  gzipDevelopment: number | null;
  budget: number | null;
}

/** What one Angular component adds to a fresh app (docs/angular-weight.json, scripts/angularWeight.mjs). */
export interface AngularApp {
  angular: string;
  measured: string;
  budget: number;
  addedGzip: { dashboard: number; templates: number; core: number };
}

/** docs/data/sizes.json. */
export interface Sizes {
  bundles: Bundle[];
  comparison: { name: string; kb: number }[];
  angularApp: AngularApp | null;
}

declare const data: Sizes;
export { data };

export default defineLoader({
  watch: ['../../data/sizes.json'],
  load: ([file]): Sizes => JSON.parse(readFileSync(file!, 'utf8')),
});
