import { expect, test, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { MockPlatform } from '../../packages/mock/src/index';
import { expectNothingParked } from '../../packages/mock/src/playwright';
import { guideFiles, writeGuideFiles } from '../../scripts/guideFiles.mjs';
import { embedFrame, mark, markOf } from './nextRoutes';

/*
 * The guides that run (docs/guide/*.md): each guide's code blocks are the files of its app
 * (scripts/guideFiles.mjs), written over a fresh default scaffold of its toolchain, and
 * `checkGuide` drives the app in Chromium as a viewer would, in a development and a production
 * build, against the mock platform. The only change to a guide's files: the tenant's address the
 * guides embed is the mock platform's. The app's server reads the platform from PLATFORM_URL and
 * PLATFORM_API_KEY, as every guide says; who is signed in is the `user` cookie (each guide's
 * placeholder for the host's own sign-in reads it).
 */

const root = resolve(import.meta.dirname, '../..');

/** The tenant the guides embed, which the tests point at the mock platform. */
export const TENANT = 'https://acme.platform.example';

/** A guide: its text and its files, the tenant pointed at the mock platform. */
export interface Guide {
  name: string;
  text: string;
  files: Map<string, string>;
  /** Writes its files over the scaffold in `dir`. */
  writeTo(dir: string): void;
}

/** The guide docs/guide/`name`.md, its files embedding `platformOrigin`. */
export function readGuide(name: string, platformOrigin: string): Guide {
  const path = join(root, 'docs/guide', `${name}.md`);
  const text = readFileSync(path, 'utf8');
  const files = new Map(
    [...guideFiles(text, `docs/guide/${name}.md`)].map(([file, content]) => [file, content.replaceAll(TENANT, platformOrigin)]),
  );
  return { name, text, files, writeTo: (dir) => writeGuideFiles(files, dir) };
}

/** The environment of a guide's server: the platform, under the names every guide uses. */
export const platformEnv = (platform: MockPlatform): Record<string, string> => ({
  PLATFORM_URL: platform.origin,
  PLATFORM_API_KEY: platform.apiKey,
});

/**
 * A message a guide may explain: a browser console line or a server log line matching `line` is
 * expected only where the guide's text says `because` (word for word), so a message a guide does
 * not explain, or stops explaining, fails its test.
 */
export interface Explained {
  line: RegExp;
  because: string;
}

/** The lines of the session route's 401 to a signed-out viewer, which every guide explains: the browser's, and the SDK's report of the embed's failure. */
export const SIGNED_OUT: Explained[] = [
  { line: /Failed to load resource: the server responded with a status of 401/, because: 'responded with a status of 401' },
  { line: /EmbedError: \[platform-embed\] .*HTTP 401/, because: 'writes the failure to the console once' },
];

/** The app running a guide, in one build. */
export interface GuideApp {
  guide: Guide;
  platform: MockPlatform;
  /** The app's origin (127.0.0.1; the mock platform is on localhost: two sites, as in production). */
  origin: string;
  /** The app server's output so far. */
  output(): string;
  /** The dashboard's page (default `/sales`). */
  dashboard?: string;
  /** Where the viewer starts: a page with the app's navigation, the dashboard not shown yet (default `/settings`). */
  start?: string;
  /** How the dashboard is shown again after the sign-out: its link (a single-page app), or after a reload of the page. */
  afterSignOut?: 'link' | 'reload';
  /** The server's ordinary lines while the viewer uses the app (a request log, a compile), besides what the guide explains. */
  quiet?: RegExp;
  /** Messages the guide may explain, besides {@link SIGNED_OUT}. */
  explained?: Explained[];
  /**
   * Where each return to the dashboard mints a session nothing uses (`next dev` renders the page
   * again), the guide's words that say so; elsewhere a return mints nothing.
   */
  returnsMint?: string;
}

/** What the viewer clicks: the app's navigation (a link or a button) by its text. */
const control = (page: Page, name: string) => page.getByRole('navigation').getByText(name, { exact: true });
const embedReady = (page: Page) => expect(page.frameLocator('iframe').getByTestId('embed-root')).toHaveAttribute('data-state', 'ready');
/** The app's error UI: a `role="alert"` region (not Next.js's route announcer, which is one too). */
export const errorUi = (page: Page) => page.locator('[role=alert]:not(#__next-route-announcer__)').filter({ visible: true });
const settingsShown = (page: Page) => expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();

/** The lines a server wrote, without their colors: every one is looked at (the SDK's own log lines hold no "error"). */
const logLines = (text: string) =>
  text
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');

/**
 * Drives the app of a guide as a viewer: signed in, the dashboard is ready with one session; it is
 * left and entered again with no session minted (the same frame document); sign-out leaves no
 * embed in the page; signed out, the session route's refusal shows the error UI with the route's
 * message; the browser console holds no error or warning, and the server's log no line, that the
 * guide does not explain.
 */
export async function checkGuide(page: Page, app: GuideApp): Promise<void> {
  const { platform, origin } = app;
  // A line is expected where the guide explains it, in its words; a line a guide stops explaining fails.
  const explained = [...SIGNED_OUT, ...(app.explained ?? [])].filter(({ because }) => app.guide.text.includes(because));
  const unexplained = (line: string) => !explained.some(({ line: pattern }) => pattern.test(line));
  const consoleProblems: string[] = [];
  page.on('console', (message) => {
    // (Not the icon the browser asks every site for: create-next-app's --empty scaffold has none.)
    if ((message.type() === 'error' || message.type() === 'warning') && !message.location().url.endsWith('/favicon.ico'))
      consoleProblems.push(`${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleProblems.push(`pageerror: ${error.message}`));
  const logBefore = app.output().length;
  platform.reset();
  await page.context().addCookies([{ name: 'user', value: 'jane', url: origin }]);
  const sessions = () => platform.sessions();

  await test.step("a load of the dashboard's page: ready with one session (minted on the server where the guide does)", async () => {
    await page.goto(`${origin}${app.dashboard ?? '/sales'}`);
    await embedReady(page);
    expect(sessions()).toHaveLength(1);
    expect(await page.locator('iframe').getAttribute('src')).toContain(sessions()[0]!.sessionId);
    platform.reset();
  });

  await test.step('signed in, from another page: the dashboard is ready with one session', async () => {
    await page.goto('about:blank');
    await page.goto(`${origin}${app.start ?? '/settings'}`);
    await settingsShown(page);
    await control(page, 'Sales').click();
    await embedReady(page);
    await expect(errorUi(page)).toHaveCount(0);
    expect(sessions()).toHaveLength(1);
    expect(sessions()[0]).toMatchObject({ user: { kind: 'external', externalId: 'jane' } });
    expect(sessions()[0]!.usedAt).toBeDefined();
    await expect(page.locator('iframe')).toHaveCount(1);
  });

  await test.step('left and entered again: the same frame document, no session used (none minted)', async () => {
    const frame = embedFrame(page, platform.origin);
    await mark(frame, 'first');
    for (let round = 0; round < 2; round++) {
      await control(page, 'Settings').click();
      await settingsShown(page);
      await control(page, 'Sales').click();
      await embedReady(page);
      expect(await markOf(frame)).toBe('first');
    }
    await expect(page.locator('iframe')).toHaveCount(1);
    expect(sessions().filter((session) => session.usedAt !== undefined)).toHaveLength(1);
    if (app.returnsMint) expect(app.guide.text, `docs/guide/${app.guide.name}.md explains it`).toContain(app.returnsMint);
    else expect(sessions()).toHaveLength(1);
  });

  const minted = () => sessions().length;
  let before = minted();
  await test.step('sign-out: no embed left in the page', async () => {
    await control(page, 'Settings').click();
    await settingsShown(page);
    before = minted();
    await control(page, 'Sign out').click();
    await expectNothingParked(page);
    await expect(page.locator('iframe')).toHaveCount(0);
    expect(minted()).toBe(before);
  });

  await test.step("signed out: the error UI shows the session route's message", async () => {
    if (app.afterSignOut === 'reload') await page.reload();
    await control(page, 'Sales').click();
    await expect(errorUi(page)).toContainText('nobody is signed in');
    expect(minted()).toBe(before);
  });

  await test.step('no error or warning the guide does not explain', async () => {
    expect(consoleProblems.filter(unexplained), 'the browser console').toEqual([]);
    const log = logLines(app.output().slice(logBefore)).filter((line) => !app.quiet?.test(line));
    expect(log.filter(unexplained), "the app server's log").toEqual([]);
  });
}

/** What the mistake pages of the fresh apps show for `?scheme=purple`: the SDK's refusal, in the prop's name. */
export const PURPLE_REFUSAL = '[platform-embed] "colorScheme" must be light|dark|auto (got "purple")';

/**
 * A bad input costs the embed, never the page (a fresh app's mistake page, `?scheme=purple`): the
 * error UI says why in one alert, the rest of the page renders and responds (its counter counts),
 * and the embed has no frame (`frames`).
 */
export async function expectOnlyTheEmbedFailed(page: Page, frames: Locator, timeout?: number): Promise<void> {
  await expect(page.getByTestId('error')).toHaveText(PURPLE_REFUSAL, { timeout });
  await expect(page.getByRole('alert')).toHaveCount(1);
  await expect(page.getByRole('heading', { name: 'Sales' })).toBeVisible();
  await expect(page.getByTestId('after')).toBeVisible();
  await page.getByTestId('counter').click();
  await page.getByTestId('counter').click();
  await expect(page.getByTestId('counter')).toHaveText('clicked 2');
  await expect(frames).toHaveCount(0);
}
