import { expect, test } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// scripts/checkDocsLinks.mjs (`pnpm check:docs`, part of `pnpm test`) on a small built site with
// the mistakes it exists to catch: a link to a page that does not exist, an anchor that is no
// element's id, and a page whose script throws. It must name each, and nothing that is right.
const root = resolve(import.meta.dirname, '..');

test('the docs link check names a missing page, a missing anchor and a page error, and nothing else', () => {
  const dist = mkdtempSync(join(tmpdir(), 'docs-links-'));
  try {
    const page = (body: string) => `<!doctype html><meta charset="utf-8"><title>t</title><body>${body}</body>`;
    writeFileSync(
      join(dist, 'index.html'),
      page(`<h2 id="here">Here</h2>
        <a href="#here">in the page</a>
        <a href="/guide/ok.html">a page</a>
        <a href="/guide/ok.html#there">an anchor that exists</a>
        <a href="/guide/ok.html#nowhere">an anchor that does not</a>
        <a href="/missing.html">a page that does not exist</a>
        <a href="/broken.html">a page that throws</a>
        <a href="https://example.com/">another site</a>`),
    );
    mkdirSync(join(dist, 'guide'));
    writeFileSync(join(dist, 'guide/ok.html'), page('<h2 id="there">There</h2><a href="/">home</a>'));
    writeFileSync(join(dist, 'broken.html'), page('<script>throw new Error("boom")</script>'));

    const { status, stdout, stderr } = spawnSync(process.execPath, [resolve(root, 'scripts/checkDocsLinks.mjs'), dist], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const problems = stderr.split('\n').filter((line) => line.startsWith('  - '));
    expect(status, stderr).toBe(1);
    expect(stdout).toMatch(/4 pages opened in Chromium, 7 internal links and anchors checked, 1 links to other sites not followed/);
    expect(problems.some((p) => p.includes('/missing.html: HTTP 404 (linked from /)'))).toBe(true);
    expect(problems.some((p) => p.includes('/guide/ok.html#nowhere: no element with the id "nowhere"'))).toBe(true);
    expect(problems.some((p) => p.includes('/broken.html: script error: boom'))).toBe(true);
    expect(problems).toHaveLength(3);
    expect(problems.filter((p) => !/missing\.html|#nowhere|boom/.test(p))).toEqual([]);
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});
