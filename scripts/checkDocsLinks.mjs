#!/usr/bin/env node
/*
 * `pnpm check:docs`: the built documentation site (docs/.vitepress/dist, `pnpm docs:build`) served on a
 * free port and opened in Chromium, page after page from the home page: every internal link must
 * lead to a page or file that exists, and every anchor (`#...`) to an element of that page with
 * that id. Pages are followed as the browser renders them, after hydration, so a link written by a
 * component counts as one in the Markdown; a page that logs an error while it loads (a failed
 * hydration, a script that throws) fails the check too. Links to other sites are listed, not
 * followed (the tests run offline).
 *
 * The READMEs (README.md, packages/*\/README.md) link into the site's Markdown sources: with the
 * repository's own site (no argument), each of
 * their relative links must name a file of the repository, and an anchor into a page of the site
 * an id of that page as built.
 *
 * The API reference's pages (docs/api, generated Markdown, hundreds of them) are opened with
 * JavaScript off: their links and ids are all in the HTML VitePress prerendered, and hydrating
 * each would only slow the check down.
 *
 * Usage: node scripts/checkDocsLinks.mjs [dist]   (exit code 1 on a broken link or a page error)
 */
import { createReadStream, existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.mjs';

const root = resolve(import.meta.dirname, '..');
const dist = resolve(process.argv[2] ?? join(root, 'docs/.vitepress/dist'));
// The READMEs link into this repository's own site, not into another one given as an argument.
const ownSite = dist === join(root, 'docs/.vitepress/dist');
if (!existsSync(join(dist, 'index.html'))) {
  console.error(`check:docs: no site in ${dist}: run \`pnpm docs:build\` first.`);
  process.exit(1);
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** The file a URL path names in the built site, as a static host serves it (`/a/` → `/a/index.html`), or null. */
function fileOf(pathname) {
  const path = join(dist, decodeURIComponent(pathname));
  if (!path.startsWith(dist + sep) && path !== dist) return null;
  for (const candidate of [path, join(path, 'index.html'), `${path}.html`])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

const server = createServer((req, res) => {
  const file = fileOf(new URL(req.url ?? '/', 'http://site').pathname);
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
});
await new Promise((listening) => server.listen(0, '127.0.0.1', listening));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
const context = await browser.newContext();
const staticContext = await browser.newContext({ javaScriptEnabled: false });
// Only this site's own files: nothing reaches another host. Without JavaScript, only the documents.
await context.route(/^https?:\/\//, (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
await staticContext.route(/^https?:\/\//, (route) =>
  route.request().url().startsWith(origin) && route.request().resourceType() === 'document' ? route.continue() : route.abort(),
);
/** Pages opened without JavaScript: the generated API reference. */
const isStatic = (path) => path.startsWith('/api/');

/** path → { ids, links, errors } of each page visited; `linked` the pages and anchors asked for, with where from. */
const pages = new Map();
const queue = ['/'];
const wanted = new Map();
const external = new Set();
const problems = [];
const key = (url) => url.pathname;

/** A tab of `browserContext`, opened once and reused page after page; `errors` collects the current page's. */
async function tab(browserContext, js) {
  const page = await browserContext.newPage();
  const tab = { page, errors: [] };
  page.on('pageerror', (error) => tab.errors.push(`script error: ${error.message}`));
  // Without JavaScript only the document is fetched: the refused styles and fonts log errors.
  if (js) page.on('console', (message) => message.type() === 'error' && tab.errors.push(`console error: ${message.text()}`));
  return tab;
}

async function visit({ page, errors }, path) {
  errors.length = 0;
  const response = await page.goto(`${origin}${path}`, { waitUntil: isStatic(path) ? 'domcontentloaded' : 'load' });
  const status = response?.status() ?? 0;
  // A page that is not there is reported as such, not by the error the browser logs for it.
  if (status !== 200) return { status, ids: new Set(), links: [], errors: [] };
  // Hydrated: Vue has mounted VitePress's app on #app (it loads the page's own chunk first).
  if (!isStatic(path) && (await page.locator('#app').count()))
    await page.waitForFunction(() => '__vue_app__' in (document.querySelector('#app') ?? {}), null, { polling: 50, timeout: 20_000 });
  const found = await page.evaluate(() => ({
    ids: [...document.querySelectorAll('[id]')].map((e) => e.id),
    links: [...document.querySelectorAll('a[href]')].map((a) => a.href),
  }));
  return { status, ids: new Set(found.ids), links: found.links, errors: [...errors] };
}

/** Records a visited page and queues the pages it links to. */
function record(path, result) {
  pages.set(path, result);
  for (const error of result.errors) problems.push(`${path}: ${error}`);
  for (const href of result.links) {
    const url = new URL(href);
    if (url.origin !== origin) {
      if (/^https?:$/.test(url.protocol)) external.add(url.href);
      continue;
    }
    const target = key(url);
    const from = wanted.get(`${target}${url.hash}`) ?? [];
    from.push(path);
    wanted.set(`${target}${url.hash}`, from);
    // Pages are followed; other files (images, the search index) are only asked for.
    if (!seen.has(target) && (extname(target) === '' || extname(target) === '.html')) {
      seen.add(target);
      queue.push(target);
    }
  }
}

const started = Date.now();
const seen = new Set(queue);
// A few workers (the machine is shared), each with a tab of its own for each kind of page.
const WORKERS = 3;
let busy = 0;
await Promise.all(
  Array.from({ length: WORKERS }, async () => {
    const tabs = { js: await tab(context, true), static: await tab(staticContext, false) };
    for (;;) {
      const path = queue.shift();
      if (path === undefined) {
        // Another worker may still queue pages from the one it is reading.
        if (busy === 0) return;
        await new Promise((wait) => setTimeout(wait, 20));
        continue;
      }
      busy++;
      try {
        record(path, await visit(isStatic(path) ? tabs.static : tabs.js, path));
      } finally {
        busy--;
      }
    }
  }),
);

for (const [link, from] of wanted) {
  const [target, hash = ''] = link.split('#');
  const where = `linked from ${[...new Set(from)].slice(0, 3).join(', ')}${new Set(from).size > 3 ? ', ...' : ''}`;
  const page = pages.get(target);
  if (!page) {
    if (!fileOf(target)) problems.push(`${link}: no such file (${where})`);
    continue;
  }
  if (page.status !== 200) problems.push(`${link}: HTTP ${page.status} (${where})`);
  else if (hash && !page.ids.has(decodeURIComponent(hash)))
    problems.push(`${link}: no element with the id "${decodeURIComponent(hash)}" in ${target} (${where})`);
}

await browser.close();
server.close();

// The READMEs' relative links: to files of the repository, and into the site's pages by their sources.
const readmes = !ownSite
  ? []
  : [
      join(root, 'README.md'),
      ...readdirSync(join(root, 'packages'))
        .map((name) => join(root, 'packages', name, 'README.md'))
        .filter((file) => existsSync(file)),
    ];
let readmeLinks = 0;
for (const readme of readmes) {
  const text = readFileSync(readme, 'utf8').replace(/```[\s\S]*?```/g, '');
  for (const [, href] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(href) || href.startsWith('#')) continue;
    readmeLinks++;
    const [path, hash = ''] = href.split('#');
    const file = resolve(dirname(readme), decodeURIComponent(path));
    const from = relative(root, readme);
    if (!existsSync(file)) {
      problems.push(`${from}: ${href}: no such file in the repository`);
      continue;
    }
    const page = relative(join(root, 'docs'), file).split(sep).join('/');
    if (!hash || page.startsWith('..') || !page.endsWith('.md')) continue;
    const html = `/${page.replace(/\.md$/, '.html')}`;
    const built = pages.get(html) ?? pages.get(html.replace(/index\.html$/, ''));
    if (!built) problems.push(`${from}: ${href}: the site has no page for docs/${page}`);
    else if (!built.ids.has(decodeURIComponent(hash)))
      problems.push(`${from}: ${href}: no element with the id "${hash}" in the built page of docs/${page}`);
  }
}

const seconds = ((Date.now() - started) / 1000).toFixed(1);
console.log(
  `check:docs: ${pages.size} pages opened in Chromium, ${wanted.size} internal links and anchors checked, ${external.size} links to other sites not followed, ${readmeLinks} relative links of the READMEs checked (${seconds} s).`,
);
if (problems.length) {
  console.error(`check:docs: ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exitCode = 1;
}
