import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/.vite/**',
      'examples/*/dist/**',
      'examples/next/.next/**',
      'examples/next/next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
      'docs/api/**',
      'docs/.vitepress/dist/**',
      'docs/.vitepress/cache/**',
      'packages/angular/src/generated/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        structuredClone: 'readonly',
        MessageEvent: 'readonly',
        HTMLElement: 'readonly',
        customElements: 'readonly',
        CustomEvent: 'readonly',
        Buffer: 'readonly',
        globalThis: 'readonly',
        queueMicrotask: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-empty-object-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['packages/*/src/**/*.{ts,tsx}'],
    rules: {
      // The shipped SDK never posts to '*' (security.md rule 7).
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='postMessage'] > Literal[value='*']",
          message: "Never post to '*': name the tenant or host origin.",
        },
      ],
    },
  },
  {
    // Node-only code is written for readers: strict equality (browser code may stay terse).
    files: ['packages/server/src/**/*.ts', 'packages/mock/src/**/*.ts', 'scripts/**/*.{mjs,ts}'],
    rules: { eqeqeq: ['error', 'always'] },
  },
  {
    // ... and without nested ternaries: a chain of conditions is an if/else or a switch.
    files: ['packages/server/src/**/*.ts', 'packages/mock/src/**/*.ts', 'compat/runtimes/**/*.{mjs,ts}'],
    rules: { 'no-nested-ternary': 'error' },
  },
);
