import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DefaultTheme } from 'vitepress';

// The API reference's sidebar, written by TypeDoc (`pnpm docs:api`, typedoc-vitepress-theme).
const apiSidebarFile = fileURLToPath(new URL('../api/typedoc-sidebar.json', import.meta.url));
const apiSidebar: DefaultTheme.SidebarItem[] = existsSync(apiSidebarFile) ? JSON.parse(readFileSync(apiSidebarFile, 'utf8')) : [];

/** The guides, one per toolchain: each page's code blocks are the files of a fresh scaffold that a test builds and runs. */
export const GUIDES: [text: string, link: string][] = [
  ['Next.js (App Router)', '/guide/nextjs'],
  ['Nuxt 4', '/guide/nuxt'],
  ['Vite + React', '/guide/vite-react'],
  ['Vite + Vue', '/guide/vite-vue'],
  ['Angular 21 with SSR', '/guide/angular'],
  ['Plain HTML and the script tag', '/guide/html'],
  ['webpack', '/guide/webpack'],
];

const sidebar: DefaultTheme.SidebarItem[] = [
  {
    text: 'Introduction',
    items: [
      { text: 'What it is', link: '/' },
      { text: 'Getting started', link: '/getting-started' },
      { text: 'The demo', link: '/demo' },
    ],
  },
  { text: 'Guides', items: GUIDES.map(([text, link]) => ({ text, link })) },
  {
    text: 'Concepts',
    items: [
      { text: 'Sessions and single use', link: '/concepts/sessions' },
      { text: "The embed's lifecycle", link: '/concepts/lifecycle' },
      { text: 'Keep-alive and sign-out', link: '/concepts/keep-alive' },
      { text: 'Events and actions', link: '/concepts/events-and-actions' },
      { text: 'Errors and their codes', link: '/concepts/errors' },
      { text: 'Security', link: '/concepts/security' },
    ],
  },
  {
    text: 'Bindings',
    items: [
      { text: 'React', link: '/bindings/react' },
      { text: 'Vue', link: '/bindings/vue' },
      { text: 'Angular', link: '/bindings/angular' },
      { text: 'Custom elements and script tag', link: '/bindings/elements' },
    ],
  },
  {
    text: 'Server',
    items: [
      { text: 'The session route', link: '/server/' },
      { text: 'Runtimes and frameworks', link: '/server/runtimes' },
    ],
  },
  { text: 'Testing', items: [{ text: 'The testing kit', link: '/testing' }] },
  {
    text: 'Reference',
    items: [
      { text: 'API', link: '/api/' },
      { text: 'Benchmarks', link: '/reference/benchmarks' },
      { text: 'Sizes', link: '/reference/sizes' },
      { text: 'Browser support', link: '/reference/browser-support' },
      { text: 'Working on this repository', link: '/contributing' },
    ],
  },
];

export default defineConfig({
  title: 'platform-embed',
  description: "Embed the platform's dashboards, chat and creator app in your web app: validated, origin-checked, typed.",
  lang: 'en',
  cleanUrls: false,
  lastUpdated: false,
  // A dated engineering log with figures typed by hand: kept in the repository, not in the site.
  srcExclude: ['size-budget.md'],
  // A link to a page that does not exist fails the build (VitePress's own check); anchors are
  // checked by scripts/checkDocsLinks.mjs in the built site.
  ignoreDeadLinks: false,
  markdown: { theme: { light: 'github-light', dark: 'github-dark' } },
  themeConfig: {
    nav: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'Guides', link: GUIDES[0]![1], activeMatch: '^/guide/' },
      { text: 'Concepts', link: '/concepts/sessions', activeMatch: '^/concepts/' },
      { text: 'API', link: '/api/', activeMatch: '^/api/' },
      { text: 'Benchmarks', link: '/reference/benchmarks' },
    ],
    sidebar: {
      '/api/': [{ text: 'API reference', link: '/api/', items: apiSidebar }, ...sidebar.slice(0, 1)],
      '/': sidebar,
    },
    outline: { level: [2, 3] },
    search: {
      provider: 'local',
      options: {
        // The API reference is found by its names, not its prose: its pages are indexed by their
        // titles and members only (the h1 and h3 headings); the other pages by their prose, without
        // their code blocks (the guides are mostly files). That keeps the index the browser loads small.
        _render(src, env, md) {
          if (!env.relativePath.startsWith('api/')) return md.render(src.replace(/^(```+)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, ''), env);
          const headings = src.split('\n').filter((line) => /^(#|###) /.test(line));
          return md.render(headings.join('\n\n'), env);
        },
      },
    },
  },
});
