/**
 * Playwright fixtures around the mock platform: `test` with a `platform` fixture (started once
 * per worker, reset before each test) whose `embedIn(page)` drives a mock embed page by its test
 * ids, and `expect`. `@playwright/test` is an optional peer dependency of the package.
 *
 * @module @platform-embed/mock/playwright
 */
import {
  expect,
  test as base,
  type Fixtures,
  type FrameLocator,
  type Locator,
  type Page,
  type PlaywrightTestArgs,
  type PlaywrightTestOptions,
  type PlaywrightWorkerArgs,
  type PlaywrightWorkerOptions,
  type TestType,
} from '@playwright/test';
import { startMockPlatform, type MockPlatform, type MockPlatformOptions } from './startMockPlatform';

/** The viewer's actions in a mock embed page: method name → the test id of its button. */
const ACTIONS = {
  drilldown: 'drilldown',
  navigate: 'navigate',
  raiseError: 'raise-error',
  signIn: 'sign-in',
  downloadCsv: 'download-csv',
  downloadPng: 'download-png',
  downloadPdf: 'download-pdf',
  dismissError: 'dismiss-error',
} as const;

/** What a mock embed page shows: property name → test id. */
const READOUTS = {
  colorScheme: 'color-scheme',
  theme: 'theme',
  themePrimary: 'theme-primary',
  locale: 'locale',
  currentPath: 'current-path',
  activeFilters: 'active-filters',
  ignoredFilters: 'ignored-filters',
  refreshCount: 'refresh-count',
  lastAction: 'last-action',
  rejectedActions: 'rejected-actions',
  launchOptions: 'launch-options',
  hostOrigin: 'host-origin',
  eventLog: 'event-log',
  mode: 'mode',
  embedTenant: 'embed-tenant',
  title: 'dashboard-title',
  widgets: 'widget',
  answers: 'ai-answer',
  errorBanner: 'error-banner',
  fatalError: 'fatal-error',
  hostRefused: 'host-refused',
} as const;

/**
 * The page helpers of one embedded mock page: a method per viewer action (it clicks the button,
 * and the page sends its event to the host) and a `Locator` per readout.
 */
export type MockEmbed = { readonly [K in keyof typeof ACTIONS]: () => Promise<void> } & {
  readonly [K in keyof typeof READOUTS]: Locator;
} & {
  /** The embed's frame. */
  readonly frame: FrameLocator;
  /** The page's root element; its `data-state` is `loading`, `signin`, `ready`, `error` or `refused`. */
  readonly root: Locator;
  /** Any element of the page by its test id (see the table in the mock's README). */
  byTestId(testId: string): Locator;
  /** Asks the AI chat `query` (a query containing "fail" completes with `status: 'error'`). */
  askAi(query: string): Promise<void>;
  /** Waits until the page is ready (it sent `ready`). */
  ready(): Promise<void>;
};

/** The `platform` fixture: the running mock platform, reset for each test, plus {@link PlatformFixture.embedIn}. */
export interface PlatformFixture extends MockPlatform {
  /**
   * The helpers of the mock embed in `scope` (a page, or a locator of the container when a page
   * has several embeds): the iframe whose URL is on this mock platform. After the test, the
   * `Retry-After` wait a throttled session route left in that page ends (a page shared by several
   * tests does not hold the next one's session calls).
   * @example
   * ```ts
   * const dashboard = platform.embedIn(page);
   * await dashboard.drilldown();
   * await expect(dashboard.colorScheme).toHaveText('dark');
   * ```
   */
  embedIn(scope: Page | Locator): MockEmbed;
}

/** The fixtures {@link test} adds; spread them into your own `test.extend` to combine. */
export interface PlatformTestFixtures {
  /** The mock platform of this worker, reset before the test, with page helpers. */
  platform: PlatformFixture;
}

/** The worker-scoped fixtures {@link test} adds. */
export interface PlatformWorkerFixtures {
  /**
   * Options of the mock platform, per worker: `test.use({ platformOptions: { port: 4600 } })`
   * when the host app under test expects a fixed origin. @default {}
   */
  platformOptions: MockPlatformOptions;
  /** The mock platform, started once per worker (as is) and closed after its last test. */
  mockPlatform: MockPlatform;
}

/**
 * Ends the wait that a `Retry-After` (of a throttled session route: `platform.throttle()`) set on
 * `page`: the SDK keeps it in a page-wide record (`Symbol.for('platform-embed.sessions@2')`,
 * shared by every copy of the SDK in the page), so that the session calls of the page wait for it.
 * The ids used stay used. A page that is closed, or has no record, is left as it is.
 */
async function endPageWait(page: Page): Promise<void> {
  await page
    .evaluate(() => {
      const record = (globalThis as Record<symbol, { version?: unknown } | undefined>)[Symbol.for('platform-embed.sessions@2')];
      if (record?.version === 2) Object.assign(record, { until: 0, line: 0 });
    })
    .catch(() => {});
}

/** Creates the helpers of the mock embed page in `frame`. */
export function mockEmbed(frame: FrameLocator): MockEmbed {
  const byTestId = (id: string) => frame.getByTestId(id);
  const embed: Record<string, unknown> = {
    frame,
    root: byTestId('embed-root'),
    byTestId,
    async askAi(query: string) {
      await byTestId('ai-query-input').fill(query);
      await byTestId('ai-query').click();
    },
    ready: () => expect(byTestId('embed-root')).toHaveAttribute('data-state', 'ready'),
  };
  for (const [name, id] of Object.entries(ACTIONS)) embed[name] = () => byTestId(id).click();
  for (const [name, id] of Object.entries(READOUTS)) embed[name] = byTestId(id);
  return embed as MockEmbed;
}

/**
 * The fixtures of {@link test}, to combine with your own:
 * `base.extend<PlatformTestFixtures, PlatformWorkerFixtures>(platformFixtures)`.
 */
export const platformFixtures: Fixtures<PlatformTestFixtures, PlatformWorkerFixtures, PlaywrightTestArgs, PlaywrightWorkerArgs> = {
  platformOptions: [{}, { option: true, scope: 'worker' }],
  mockPlatform: [
    async ({ platformOptions }, use) => {
      const platform = await startMockPlatform(platformOptions);
      await use(platform);
      await platform.close();
    },
    { scope: 'worker' },
  ],
  platform: async ({ mockPlatform }, use) => {
    mockPlatform.reset();
    const iframe = `iframe[src^="${mockPlatform.origin}/"]`;
    const pages = new Set<Page>();
    await use(
      Object.assign(Object.create(mockPlatform) as MockPlatform, {
        embedIn: (scope: Page | Locator) => {
          pages.add('page' in scope ? scope.page() : scope);
          return mockEmbed(scope.locator(iframe).contentFrame());
        },
      }),
    );
    // A page that outlives the test (shared by a describe block) keeps no `Retry-After` wait of it.
    await Promise.all([...pages].map(endPageWait));
  },
};

/**
 * Playwright's `test` with the mock platform: a `platform` fixture (started once per worker,
 * reset before each test) whose `embedIn(page)` returns page helpers that know the mock's test ids.
 * @example
 * ```ts
 * import { expect, test } from '@platform-embed/mock/playwright';
 *
 * test('the host page shows a drilldown', async ({ page, platform }) => {
 *   await page.goto('/sales');
 *   const dashboard = platform.embedIn(page);
 *   await dashboard.drilldown();
 *   expect(platform.sessions()).toHaveLength(1);
 * });
 * ```
 */
export const test: TestType<
  PlaywrightTestArgs & PlaywrightTestOptions & PlatformTestFixtures,
  PlaywrightWorkerArgs & PlaywrightWorkerOptions & PlatformWorkerFixtures
> = base.extend<PlatformTestFixtures, PlatformWorkerFixtures>(platformFixtures);

/**
 * Asserts that nothing of the SDK is left out of sight in `page`: no embed parked (`keepAlive`),
 * preloaded, or set aside by a hidden component, in any copy of the SDK the page loaded (each
 * keeps them in the slots of a `[data-platform-lot]` element). Use it after the app's sign-out,
 * which calls `releaseEmbeds()`, to prove that nothing of the signed-out viewer can reach the
 * next one. Retries like Playwright's web-first assertions.
 * @example
 * ```ts
 * await page.getByRole('button', { name: 'Sign out' }).click();
 * await expectNothingParked(page);
 * ```
 */
export async function expectNothingParked(page: Page, options?: { timeout?: number }): Promise<void> {
  await expect(
    page.locator('[data-platform-lot] > *'),
    'embeds parked, preloaded or set aside: call releaseEmbeds() when the viewer signs out',
  ).toHaveCount(0, options);
}

export { expect };
