import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pkgs = ['core', 'react', 'vue', 'element', 'server', 'mock'];
const alias = Object.fromEntries(
  pkgs.map((p) => [`@platform-embed/${p}`, fileURLToPath(new URL(`./packages/${p}/src/index.ts`, import.meta.url))]),
);

const dom = new Set(['core', 'react', 'vue', 'element']);

export default defineConfig({
  test: {
    projects: pkgs.map((p) => ({
      resolve: { alias },
      test: {
        name: p,
        root: `./packages/${p}`,
        environment: dom.has(p) ? 'jsdom' : 'node',
        include: ['test/**/*.test.{ts,tsx}'],
        typecheck: { enabled: true, include: ['test/**/*.test-d.{ts,tsx}'], tsconfig: '../../tsconfig.json' },
      },
    })),
  },
});
