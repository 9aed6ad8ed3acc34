import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { guideFiles, readGuideFiles } from '../guideFiles.mjs';

// scripts/guideFiles.mjs: a guide's code blocks are the files of its app (```lang [path]).

const guides = fileURLToPath(new URL('../../docs/guide', import.meta.url));

test('a block with a path is a file; shell commands and output are not files', () => {
  const files = guideFiles(
    [
      '# A guide',
      '```sh',
      'npm install @platform-embed/react',
      '```',
      '```tsx [src/App.tsx]',
      'export const App = () => null;',
      '```',
      'Some prose.',
      '````md [docs/note.md]',
      '```ts',
      'inside',
      '```',
      '````',
      '```text',
      'what a program prints',
      '```',
    ].join('\n'),
  );
  expect([...files]).toEqual([
    ['src/App.tsx', 'export const App = () => null;\n'],
    ['docs/note.md', '```ts\ninside\n```\n'],
  ]);
});

test.each([
  ['a code block without its path', '```ts\nconst a = 1;\n```', /line 1: a `ts` block without its file's path/],
  ['a path given twice', '```ts [a.ts]\n```\n```ts [a.ts]\n```', /line 3: a\.ts is given twice/],
  ['a path outside the app', '```ts [../a.ts]\n```', /is not a path inside the app/],
  ['an absolute path', '```ts [/etc/a.ts]\n```', /is not a path inside the app/],
  ['a block that never closes', 'text\n```ts [a.ts]\nconst a = 1;', /line 2: a code block that never closes/],
])('refused: %s', (_, markdown, error) => {
  expect(() => guideFiles(markdown, 'guide.md')).toThrow(error);
});

test('every guide of docs/guide is files: each has some, and names the packages it installs', () => {
  const names = readdirSync(guides).filter((name) => name.endsWith('.md'));
  expect(names.sort()).toEqual(['angular.md', 'html.md', 'nextjs.md', 'nuxt.md', 'vite-react.md', 'vite-vue.md', 'webpack.md']);
  for (const name of names) {
    const files = readGuideFiles(join(guides, name));
    expect(files.size, name).toBeGreaterThanOrEqual(2);
    const code = [...files.values()].join('\n');
    // The placeholders for the host's own sign-in are marked as such.
    expect(code, name).toContain('PLACEHOLDER: your');
    // What the app imports of ours, the guide's shell commands install.
    const commands = [...readFileSync(join(guides, name), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map(([, body]) => body).join('\n');
    const installed = commands.split(/\s+/);
    for (const [used] of code.matchAll(/@platform-embed\/[a-z]+/g)) expect(installed, `${name} installs ${used}`).toContain(used);
  }
});
