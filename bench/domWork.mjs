// The DOM-work benchmark, run by bench/run.mjs (`--only=domwork`): a page of 50 embeds whose
// components are hidden (what React's <Activity> and Next.js's kept routes do: each embed then
// waits, watched, for its container's real removal), doing DOM work of its own: 3,000 appends,
// into a list and into <body>. Against the same page without the SDK (the same 50 dashboards as
// plain iframes). Two servers of their own: the host on 127.0.0.1 (bench/pages/domWork.js) and the
// embed on localhost (bench/pages/resilientEmbed.js).
import { resolve } from 'node:path';
import { TYPES, hostPage, listen, listenResilientEmbed, serveFile } from './server.mjs';

const pagesDir = resolve(import.meta.dirname, 'pages');
const EMBEDS = 50;
const APPENDS = 3000;
// The target of the issue: the page's DOM work with the embeds at most twice the page's without them.
const LIMIT = 2;
const TARGETS = { list: 'a list in the page', body: '`<body>` itself' };

/**
 * Runs the DOM-work benchmark in `context` (a Playwright browser context) and adds its row and
 * details through run.mjs's `row` and `details`, with its statistics helpers in `stats`.
 */
export async function domWork({ context, root, quick, log, row, details, stats }) {
  const { median, ms, spread, ratioVerdict, round } = stats;
  const warmup = quick ? 2 : 5;
  const rounds = quick ? 6 : 21;
  let hostOrigin = '';
  const host = await listen('127.0.0.1', (url, send, res) => {
    if (url.pathname === '/domwork') {
      send(200, TYPES['.html'], hostPage('/bench/domWork.js', '<main></main>'));
      return true;
    }
    return serveFile(url, '/core/', resolve(root, 'packages/core/dist'), res) || serveFile(url, '/bench/', pagesDir, res);
  });
  hostOrigin = host.origin;
  const embed = await listenResilientEmbed(() => hostOrigin);
  const pages = {};
  try {
    log(`domwork: ${EMBEDS} hidden embeds vs the same page without the SDK, ${APPENDS} appends, ${warmup} warm-up + ${rounds} rounds...`);
    const setups = {};
    for (const mode of ['sdk', 'none']) {
      const p = (pages[mode] = await context.newPage());
      p.on('pageerror', (e) => console.error('[page error]', e.message));
      await p.goto(`${host.origin}/domwork?embed=${encodeURIComponent(embed.origin)}&n=${EMBEDS}${mode == 'sdk' ? '&sdk' : ''}`);
      await p.waitForFunction(() => 'domWork' in window);
      setups[mode] = await p.evaluate(() => window.domWork.setup());
      setups[mode].hidden = await p.evaluate(() => window.domWork.hide());
    }
    if (setups.sdk.iframes !== EMBEDS || setups.sdk.routed !== EMBEDS || setups.none.iframes !== EMBEDS)
      throw new Error(`expected ${EMBEDS} embeds on each page: ${JSON.stringify(setups)}`);
    if (setups.sdk.hidden.statuses.join() !== 'ready')
      throw new Error(`the hidden embeds are not kept ready: ${JSON.stringify(setups.sdk.hidden)}`);
    const samples = Object.fromEntries(Object.keys(TARGETS).map((t) => [t, { sdk: [], none: [] }]));
    for (let round = 0; round < warmup + rounds; round++)
      for (const target of Object.keys(TARGETS))
        for (const mode of round % 2 ? ['none', 'sdk'] : ['sdk', 'none']) {
          const p = pages[mode];
          // The page measured is the foreground tab: Chromium lowers the priority of background renderers.
          await p.bringToFront();
          const took = await p.evaluate(([count, where]) => window.domWork.work(count, where), [APPENDS, target]);
          if (round >= warmup) samples[target][mode].push(took);
        }
    const verdicts = {};
    const lines = [];
    for (const [target, label] of Object.entries(TARGETS)) {
      const { sdk, none } = samples[target];
      const ratios = sdk.map((x, i) => x / none[i]);
      verdicts[target] = ratioVerdict(ratios, LIMIT);
      lines.push(
        `| ${label} | ${ms(median(sdk))} (${spread(sdk, ms)}) | ${ms(median(none))} (${spread(none, ms)}) | ${verdicts[target].figure} |`,
      );
    }
    details.push(
      `### 14. ${EMBEDS} embeds on a page: the page's DOM work`,
      '',
      `One host page with ${EMBEDS} dashboards (each a 320×200 container in a section), mounted with the core's binding (\`createBinding().mount\`, as the framework components do) and ready, then every section hidden (\`display: none\`) and its component unmounted, as React's \`<Activity mode="hidden">\` does to a route left: hidden is not gone, so each embed waits, watched, for its container's real removal. Against the same page without the SDK: the same ${EMBEDS} dashboards as plain iframes, hidden the same way. The page's own work: ${APPENDS} appends of a new element, into ${Object.values(TARGETS).join(' and into ')} (the ancestor of every container the SDK watches), timed until the microtasks they queued (MutationObserver callbacks) have run. ${warmup} warm-up rounds, then ${rounds} rounds, the two pages in alternating order; ratios per round.`,
      '',
      '| appended into | SDK, median (min–max) | without the SDK, median (min–max) | ratio (95 % CI) |',
      '|---|---|---|---|',
      ...lines,
      '',
      `The SDK watches the hidden containers with one MutationObserver for the page that observes only the child lists of their ancestors (no subtree): DOM work anywhere else makes no records at all; work on an ancestor (\`<body>\` here) makes one record per change, for one callback per task.`,
      '',
    );
    const worst = Object.values(verdicts).some((v) => v.verdict == 'MISSED')
      ? 'MISSED'
      : Object.values(verdicts).every((v) => v.verdict == 'met')
        ? 'met'
        : 'unresolved (noise)';
    row(
      14,
      `DOM work, ${EMBEDS} hidden embeds vs none (${APPENDS} appends)`,
      `list ${ms(median(samples.list.sdk))}; body ${ms(median(samples.body.sdk))}`,
      `without the SDK: list ${ms(median(samples.list.none))}; body ${ms(median(samples.body.none))}`,
      `list ${verdicts.list.figure}; body ${verdicts.body.figure}`,
      `≤ ${LIMIT}×`,
      worst,
      `the page's ${APPENDS} appends took ${verdicts.list.figure} (into a list) and ${verdicts.body.figure} (into \`<body>\`) of the same page's without the SDK, against ≤ ${LIMIT}×: a ratio over it points at a MutationObserver observing more than the watched containers' ancestors (packages/core/src/whenGone.ts).`,
      {
        unit: 'ms',
        bars: [
          { label: 'into a list: SDK', value: round(median(samples.list.sdk)) },
          { label: 'into a list: without the SDK', value: round(median(samples.list.none)) },
          { label: 'into <body>: SDK', value: round(median(samples.body.sdk)) },
          { label: 'into <body>: without the SDK', value: round(median(samples.body.none)) },
        ],
      },
    );
  } finally {
    for (const p of Object.values(pages)) await p.close();
    await Promise.all([host.close(), embed.close()]);
  }
}
