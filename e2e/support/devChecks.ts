import { expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import type { Scaffold } from './scaffold';

// What a fresh app's development and production builds must show: the development checks and
// long messages in one, none of their text in the other (shared by the toolchain specs).

/** Runs in the page: what the core answers to one option no build accepts and one mistake only development reports. */
export const PROBE = `import { embedDashboard } from '@platform-embed/core';

// A valid embed, mounted and destroyed at once; http on localhost is allowed, port 9 answers nothing.
const valid = { container: '#embed', baseUrl: 'http://localhost:9', publicId: 'sales-overview', session: 'one-time-session' };
const attempt = (run) => {
  try {
    run();
    return { accepted: true };
  } catch (error) {
    return { code: error.code, message: error.message };
  }
};
export function runProbe() {
  window.probe = {
    // Refused in every build: the message explains in development, names code and field in production.
    readyTimeout: attempt(() => embedDashboard({ ...valid, readyTimeout: 'abc' }).destroy()),
    // A developer's typo, refused in development only.
    unknownEvent: attempt(() => {
      const embed = embedDashboard(valid);
      try {
        embed.on('drilldwon', () => {});
      } finally {
        embed.destroy();
      }
    }),
  };
}
`;
/** The entry of a page that runs the probe at once. */
export const PROBE_ENTRY = "import { runProbe } from './probe.js';\nrunProbe();\n";

/** A page with the container of the probe's embed and `script`. */
export const PAGE = (script: string, type = 'text/javascript') =>
  `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><div id="embed"></div><script type="${type}" src="${script}"></script></body></html>`;

export type Answer = { accepted?: true; code?: string; message?: string };
export type Probe = { readyTimeout: Answer; unknownEvent: Answer };

/**
 * The texts of the packed core's development build that its production build lacks (its long
 * messages): the string and template literals of each, cut where a bundler may write an escape,
 * and long enough not to be another library's words (Vue's production build has
 * " handler must be a function" too).
 */
export function developmentTexts(fresh: Scaffold): string[] {
  const literals = (file: string) => {
    const path = fresh.file('@platform-embed/core', `dist/${file}`);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest);
    const texts = new Set<string>();
    const add = (text: string) => {
      for (const part of text.split(/["'`\\\n]/)) if (part.length >= 30 && part.includes(' ')) texts.add(part);
    };
    const visit = (node: ts.Node) => {
      if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) add(node.text);
      else if (ts.isTemplateExpression(node))
        [node.head, ...node.templateSpans.map((span) => span.literal)].forEach((part) => add(part.text));
      node.forEachChild(visit);
    };
    visit(source);
    return texts;
  };
  const production = literals('index.production.mjs');
  return [...literals('index.development.mjs')].filter((text) => !production.has(text));
}

export const expectDevelopment = (probe: Probe) => {
  // The long message: what is wrong and what to pass, not only the field.
  expect(probe.readyTimeout.code).toBe('invalid-option');
  expect(probe.readyTimeout.message).toContain('readyTimeout');
  expect(probe.readyTimeout.message).toMatch(/must|expected|pass/);
  expect(probe.unknownEvent.code).toBe('invalid-option');
  expect(probe.unknownEvent.message).toContain('drilldwon');
};

/** The production build refuses what no build accepts (code and field), and lets the development-only check go. */
export const expectProduction = (probe: Probe) => {
  expect(probe.unknownEvent).toEqual({ accepted: true });
  // Invalid numbers are refused in every build: with the code and the option's name in production.
  expect(probe.readyTimeout.code).toBe('invalid-option');
  expect(probe.readyTimeout.message).toContain('readyTimeout');
};

export const expectNoDevelopmentText = (bundle: string, texts: string[]) => {
  const found = texts.filter((text) => bundle.includes(text));
  expect(found, 'development-only messages in a production bundle').toEqual([]);
};
