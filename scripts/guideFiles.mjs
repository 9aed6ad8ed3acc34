#!/usr/bin/env node
/*
 * The files of a guide (docs/guide/*.md): a guide's code blocks are the files of its app, written
 * over a fresh default scaffold of its toolchain. A block is a file when its info string names
 * the file's path in brackets, as VitePress writes a code block's title:
 *
 *     ```tsx [app/sales/page.tsx]
 *
 * Every block of a guide is a file, but shell commands (`sh`, `bash`, `shell`) and program
 * output (`text`), which the reader runs or reads. A code block without a path is an error, and so
 * is a path given twice or one that leaves the app's folder: what a guide shows is what its test
 * builds (e2e/guide*.spec.ts), so a change to a guide changes the app the test runs.
 *
 * Usage: node scripts/guideFiles.mjs docs/guide/vite-react.md [DIR]
 *   writes the guide's files under DIR (a scaffold's folder), or lists their paths without DIR.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Languages of the blocks that are not files: commands to run and what a program prints. */
const NOT_FILES = new Set(['sh', 'bash', 'shell', 'text']);

/**
 * The files of a guide, path → content, in the order the guide shows them.
 * @param {string} markdown the guide's text
 * @param {string} [name] the guide's name, for the errors
 * @returns {Map<string, string>}
 */
export function guideFiles(markdown, name = 'the guide') {
  const files = new Map();
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,}|~{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, fence, info] = open;
    const end = lines.findIndex((line, j) => j > i && line.startsWith(fence) && line.slice(fence.length).trim() === '');
    if (end < 0) throw new Error(`${name}, line ${i + 1}: a code block that never closes`);
    const body = lines.slice(i + 1, end).join('\n');
    const where = `${name}, line ${i + 1}`;
    i = end;
    const [, lang = '', path] = /^\s*([\w-]*)\s*(?:\[([^\]]*)\])?/.exec(info) ?? [];
    if (NOT_FILES.has(lang) && path === undefined) continue;
    if (!path) throw new Error(`${where}: a \`${lang || 'code'}\` block without its file's path: write \`\`\`${lang} [path/of/the/file]`);
    const file = normalize(path.trim());
    if (isAbsolute(file) || file.startsWith('..')) throw new Error(`${where}: ${path} is not a path inside the app`);
    if (files.has(file)) throw new Error(`${where}: ${file} is given twice`);
    files.set(file, `${body}\n`);
  }
  return files;
}

/**
 * Reads a guide and returns its files.
 * @param {string} guide the guide's path
 * @returns {Map<string, string>}
 */
export const readGuideFiles = (guide) => guideFiles(readFileSync(guide, 'utf8'), guide);

/**
 * Writes the files of a guide under `dir`, over what the scaffold put there.
 * @param {Map<string, string>} files from {@link guideFiles}
 * @param {string} dir the app's folder
 */
export function writeGuideFiles(files, dir) {
  for (const [path, content] of files) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [guide, dir] = process.argv.slice(2);
  if (!guide) {
    console.error('usage: node scripts/guideFiles.mjs docs/guide/<guide>.md [DIR]');
    process.exit(2);
  }
  const files = readGuideFiles(guide);
  if (dir) writeGuideFiles(files, dir);
  for (const path of files.keys()) console.log(dir ? `wrote ${join(dir, path)}` : path);
}
