// Benchmarks of @platform-embed/core in headless Chromium, host and embed on two real
// origins (127.0.0.1 and localhost: two sites, so the embed is an out-of-process frame) and
// a third site (127.0.0.2) for the hostile frame. Every figure is a ratio or a count taken
// side by side in this run. Prints a table and writes its results as data, results.json, and
// RESULTS.md rendered from them (bench/report.mjs), into test-results/bench/; with --update (or
// UPDATE_RESULTS=1) it writes the committed bench/results.json and bench/RESULTS.md instead, so
// that a run leaves the working tree clean unless asked. The documentation site's benchmark page
// and the README's figures are drawn from the committed results.json.
//
//   node bench/run.mjs [--quick] [--update] [--only=dispatch,hostile,lifecycle,first-event,resilience,keepalive,domwork,size] [--candidate=<dir>]
//   (resilience includes the rate-limited platform, row 10; keepalive is rows 11-13, keep-alive and preload; domwork is row 14, 50 embeds and the page's DOM work)
//
// --candidate=<dir> serves another build of the core (a folder with index.mjs) and adds it to
// the dispatch benchmark as one more mode, to measure a fix side by side with the shipped core.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, relative, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../scripts/chromium.mjs';
import { domWork } from './domWork.mjs';
import { keepAlive } from './keepAlive.mjs';
import { COMMITTED, format, renderResults } from './report.mjs';
import { resilience } from './resilience.mjs';
import { serve } from './server.mjs';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const updateCommittedResults = args.includes('--update') || process.env.UPDATE_RESULTS === '1';
const resultsFile = updateCommittedResults ? COMMITTED.markdown : resolve(root, 'test-results/bench/RESULTS.md');
const resultsData = updateCommittedResults ? COMMITTED.json : resolve(root, 'test-results/bench/results.json');
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice(7)
  .split(',');
const runs = (name) => !only || only.includes(name);
const candidate = args.find((a) => a.startsWith('--candidate='))?.slice(12);
if (candidate && !existsSync(resolve(candidate, 'index.mjs')))
  throw new Error(`--candidate=${candidate}: no index.mjs there; pass the folder of a built core ESM`);

const CONFIG = {
  events: 20000,
  embeds: 50,
  dispatchWarmup: quick ? 1 : 2,
  dispatchRounds: quick ? 3 : 9,
  hostileObjects: 2_000_000,
  hostileRounds: quick ? 1 : 3,
  cycles: quick ? 200 : 1000,
  cycleWarmup: 50,
  firstEventWarmup: quick ? 2 : 4,
  firstEventPairs: quick ? 6 : 40,
};

// ---- statistics --------------------------------------------------------------------------
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => {
  const s = sorted(xs);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const range = (xs) => [Math.min(...xs), Math.max(...xs)];
const ms = (x) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
// A figure as it is printed, as a number for the charts (`ms(x)` → `round(x)`).
const round = (x) => Number(x.toFixed(x < 10 ? 2 : 1));
const times = (x) => `${x.toFixed(3)}×`;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const spread = (xs, fmt) => `${fmt(range(xs)[0])}–${fmt(range(xs)[1])}`;
// 95 % bootstrap confidence interval of the median (seeded, so a run's figures are reproducible from its samples).
function medianCI(xs, resamples = 4000) {
  let seed = 0x9e3779b9;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const medians = sorted(Array.from({ length: resamples }, () => median(xs.map(() => xs[Math.floor(random() * xs.length)]))));
  return [medians[Math.floor(resamples * 0.025)], medians[Math.ceil(resamples * 0.975) - 1]];
}
// A ratio target is met when the whole interval is within it, missed when the whole interval is beyond it;
// otherwise this run's noise cannot tell, and the report says so rather than guess.
function ratioVerdict(ratios, limit) {
  const [lo, hi] = medianCI(ratios);
  const m = median(ratios);
  const verdict = hi <= limit ? 'met' : lo > limit ? 'MISSED' : 'unresolved (noise)';
  return { m, lo, hi, verdict, figure: `${times(m)} (95 % CI ${lo.toFixed(3)}–${hi.toFixed(3)})` };
}

// ---- servers and browser -----------------------------------------------------------------
// A frame page: the script of pages/<file>, with `HOST` set to the host origin it may talk to.
const page = (file, host) => () =>
  `<!doctype html><meta charset="utf-8"><title>bench</title><body><script>const HOST = ${JSON.stringify(host)};\n${readFileSync(resolve(import.meta.dirname, 'pages', file), 'utf8')}</script>`;
const host = await serve({
  host: '127.0.0.1',
  mounts: {
    '/core/': resolve(root, 'packages/core/dist'),
    ...(candidate ? { '/candidate/': resolve(candidate) } : {}),
    '/bench/': resolve(import.meta.dirname, 'pages'),
  },
  routes: {
    '/host': () => '<!doctype html><meta charset="utf-8"><title>host</title><body><script type="module" src="/bench/host.js"></script>',
  },
});
const embed = await serve({ host: 'localhost', routes: { '/embed/dashboard/': page('embed.js', host.origin) } });
const hostile = await serve({ host: '127.0.0.2', routes: { '/hostile': page('hostile.js', host.origin) } });

const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
const context = await browser.newContext();

async function hostPage(core = '/core/index.mjs') {
  const p = await context.newPage();
  p.on('pageerror', (e) => console.error('[page error]', e.message));
  await p.goto(`${host.origin}/host?embed=${encodeURIComponent(embed.origin)}&core=${encodeURIComponent(core)}`);
  await p.waitForFunction(() => 'bench' in window);
  return p;
}
const call = (p, name, ...rest) => p.evaluate(([n, a]) => window.bench[n](...a), [name, rest]);
const log = (...line) => console.log(...line);
const rows = [];
const details = [];
const misses = [];
// Why some targets are missed: listed with the misses, but not counted as one.
const explanations = [];

// `ok` is a boolean or a verdict from ratioVerdict(); anything but met is listed with its explanation.
// `null`: an informational row, without a target, verdict or miss.
// `chart` (optional): the row's figures as numbers, for the documentation site's charts:
// `{ unit, scale?: 'log', bars: [{ label, value, note? }] }`, `value` null for "never".
function row(id, name, result, baseline, figure, target, ok, miss, chart) {
  let verdict = ok ? 'met' : 'MISSED';
  if (typeof ok == 'string') verdict = ok;
  if (ok === null) verdict = '';
  rows.push({ id: String(id), name, result, baseline, figure, target, verdict, ...(chart && { chart }) });
  if (verdict && verdict != 'met') misses.push(`**${id}. ${name}**, ${verdict}: ${miss}`);
}
const overBy = (v, limit) =>
  v.verdict == 'MISSED'
    ? `over by ${((v.m / limit - 1) * 100).toFixed(1)} %`
    : `the 95 % confidence interval of the median (${v.lo.toFixed(3)}–${v.hi.toFixed(3)}) contains the target, so this run cannot tell (median ${v.m > limit ? `${((v.m / limit - 1) * 100).toFixed(1)} % over` : 'within'}); rerun on a quiet machine`;

try {
  // ---- 1 and 2: dispatch cost ------------------------------------------------------------
  if (runs('dispatch')) {
    log(`dispatch: ${CONFIG.events} events, ${CONFIG.dispatchWarmup} warm-up + ${CONFIG.dispatchRounds} rounds, modes rotated...`);
    const modes = {
      bare: { params: ['bare'], label: 'bare `message` listener: counts, reads nothing (physical limit)' },
      hand: { params: ['hand'], label: 'hand-written listener: checks source + origin, reads `event.data`' },
      sdk1: { params: ['sdk', 1], label: "SDK, 1 embed, typed `on('drilldown')` handler" },
      sdkN: { params: ['sdk', CONFIG.embeds], label: `SDK, ${CONFIG.embeds} embeds, events from the last mounted` },
      bareN: { params: ['bare', CONFIG.embeds], label: `control: bare listener, ${CONFIG.embeds} iframes, events from the last` },
      ...(candidate && {
        cand1: { params: ['sdk', 1], core: '/candidate/index.mjs', label: `candidate core (\`${candidate}\`), 1 embed` },
      }),
    };
    const keys = Object.keys(modes);
    for (const key of keys) {
      const mode = modes[key];
      mode.page = await hostPage(mode.core);
      mode.setup = await call(mode.page, 'setupDispatch', ...mode.params);
      // CPU time of the host renderer's main thread (CDP Performance.ThreadTime): unlike wall
      // time, it does not grow when a shared machine takes the CPU away.
      mode.cdp = await context.newCDPSession(mode.page);
      await mode.cdp.send('Performance.enable');
      mode.wall = [];
      mode.cpu = [];
    }
    if (modes.sdkN.setup.listenerCount !== CONFIG.embeds || modes.sdkN.setup.iframes !== CONFIG.embeds)
      throw new Error(`expected ${CONFIG.embeds} routed embeds, got ${JSON.stringify(modes.sdkN.setup)}`);
    const threadTime = async (cdp) => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value * 1000;
    for (let round = 0; round < CONFIG.dispatchWarmup + CONFIG.dispatchRounds; round++) {
      // Rotate the order every round, so no mode always runs first or last.
      for (const key of keys.map((_, i) => keys[(i + round) % keys.length])) {
        const mode = modes[key];
        // The page measured is the foreground tab: Chromium lowers the priority of background renderers.
        await mode.page.bringToFront();
        await mode.page.waitForTimeout(100);
        const cpu0 = await threadTime(mode.cdp);
        const wall = await call(mode.page, 'blast', CONFIG.events);
        const cpu = (await threadTime(mode.cdp)) - cpu0;
        if (round >= CONFIG.dispatchWarmup) {
          mode.wall.push(wall);
          mode.cpu.push(cpu);
        }
      }
    }
    for (const key of keys) await modes[key].page.close();
    const ratios = (a, b, what = 'wall') => modes[a][what].map((x, i) => x / modes[b][what][i]);
    const med = (key, what = 'wall') => median(modes[key][what]);
    const perEvent = (x) => `${((x / CONFIG.events) * 1000).toFixed(1)} µs`;
    const list = (xs) => xs.map((r) => r.toFixed(3)).join(', ');
    details.push(
      '### 1–2. Dispatch cost',
      '',
      `${CONFIG.events} valid \`drilldown\` envelopes posted by the embed in a loop; wall time from the host's request to the last event handled (\`performance.now()\` in the host). One page per mode, kept alive and brought to the front when measured; ${CONFIG.dispatchWarmup} warm-up rounds, then ${CONFIG.dispatchRounds} rounds with the order rotated. Ratios are per round (side by side), the figure their median, the spread their min–max. "Host CPU" is the CPU time of the host renderer's main thread over the same interval (CDP \`Performance.getMetrics\` \`ThreadTime\`), which machine load does not inflate.`,
      '',
      '| mode | wall median | wall min–max | host CPU median | host CPU per event |',
      '|---|---|---|---|---|',
      ...keys.map(
        (k) => `| ${modes[k].label} | ${ms(med(k))} | ${spread(modes[k].wall, ms)} | ${ms(med(k, 'cpu'))} | ${perEvent(med(k, 'cpu'))} |`,
      ),
      '',
      `Per-round wall ratios: SDK/bare ${list(ratios('sdk1', 'bare'))}; hand-written/bare ${list(ratios('hand', 'bare'))}; ${CONFIG.embeds} embeds/1 embed ${list(ratios('sdkN', 'sdk1'))}; control ${CONFIG.embeds} iframes/1 iframe (bare) ${list(ratios('bareN', 'bare'))}${candidate ? `; candidate/bare ${list(ratios('cand1', 'bare'))}` : ''}.`,
      '',
    );
    const r1 = median(ratios('sdk1', 'bare'));
    const c1 = median(ratios('sdk1', 'bare', 'cpu'));
    const rHand = median(ratios('hand', 'bare'));
    const cHand = median(ratios('hand', 'bare', 'cpu'));
    const extraCpu = med('sdk1', 'cpu') - med('bare', 'cpu');
    const readCpu = med('hand', 'cpu') - med('bare', 'cpu');
    const v1 = ratioVerdict(ratios('sdk1', 'bare'), 1.15);
    row(
      1,
      'Dispatch cost: SDK vs bare listener',
      ms(med('sdk1')),
      ms(med('bare')),
      `${v1.figure}; CPU ${times(c1)}`,
      '≤ 1.15×',
      v1.verdict,
      `${times(r1)} wall against ≤ 1.15×: ${overBy(v1, 1.15)}. Host CPU says more: ${times(c1)} bare, ${perEvent(extraCpu)} more per event. A hand-written listener that checks source and origin and reads \`event.data\` already adds ${perEvent(readCpu)} per event (wall ${times(rHand)}, CPU ${times(cHand)} bare): that is the browser deserializing the data on first access, which no host that acts on a message avoids, and it alone is ${readCpu / med('bare', 'cpu') > 0.15 ? 'more than' : 'within'} the 15 % allowance of host CPU. The remaining ${perEvent(extraCpu - readCpu)} per event (SDK/hand-written CPU ${times(median(ratios('sdk1', 'hand', 'cpu')))}) is the SDK's own work: routing by \`event.source\`, envelope and payload validation (\`parseMessage\`), handler dispatch (\`emit\`).`,
      {
        unit: 'ms',
        bars: [
          { label: 'SDK', value: round(med('sdk1')) },
          { label: 'hand-written listener', value: round(med('hand')) },
          { label: 'bare listener (reads nothing)', value: round(med('bare')) },
        ],
      },
    );
    const r2 = median(ratios('sdkN', 'sdk1'));
    const c2 = median(ratios('sdkN', 'sdk1', 'cpu'));
    const v2 = ratioVerdict(ratios('sdkN', 'sdk1'), 1.05);
    row(
      2,
      `Many embeds: ${CONFIG.embeds} vs 1`,
      ms(med('sdkN')),
      ms(med('sdk1')),
      `${v2.figure}; CPU ${times(c2)}`,
      '≤ 1.05×',
      v2.verdict,
      `${times(r2)} wall against ≤ 1.05×: ${overBy(v2, 1.05)} (host CPU ${times(c2)}). Routing is one Map lookup by \`event.source\` (packages/core/src/listener.ts), independent of the number of embeds. Control without the SDK: a bare listener on a page with ${CONFIG.embeds} iframes vs 1 iframe is ${times(median(ratios('bareN', 'bare')))} wall, ${times(median(ratios('bareN', 'bare', 'cpu')))} host CPU; what the SDK adds with ${CONFIG.embeds} embeds beyond that page cost is ${times(r2 / median(ratios('bareN', 'bare')))} wall, ${times(c2 / median(ratios('bareN', 'bare', 'cpu')))} CPU.`,
      {
        unit: 'ms',
        bars: [
          { label: `SDK, ${CONFIG.embeds} embeds`, value: round(med('sdkN')) },
          { label: 'SDK, 1 embed', value: round(med('sdk1')) },
          { label: `bare listener, ${CONFIG.embeds} iframes`, value: round(med('bareN')) },
        ],
      },
    );
    row(
      '1b',
      'Dispatch: hand-written listener vs bare',
      ms(med('hand')),
      ms(med('bare')),
      `${ratioVerdict(ratios('hand', 'bare'), 1.15).figure}; CPU ${times(cHand)}`,
      '(reference)',
      true,
    );
    rows.at(-1).verdict = '';
    if (candidate) {
      const vc = ratioVerdict(ratios('cand1', 'bare'), 1.15);
      row(
        '1c',
        'Dispatch: candidate core vs bare',
        ms(med('cand1')),
        ms(med('bare')),
        `${vc.figure}; CPU ${times(median(ratios('cand1', 'bare', 'cpu')))}`,
        '≤ 1.15×',
        vc.verdict,
        `the candidate core measures ${times(vc.m)} against ≤ 1.15×: ${overBy(vc, 1.15)}; it adds ${perEvent(med('cand1', 'cpu') - med('bare', 'cpu'))} of host CPU per event, the shipped core ${perEvent(extraCpu)}.`,
      );
    }
  }

  // ---- 3: hostile payload ----------------------------------------------------------------
  if (runs('hostile')) {
    log(`hostile: ${CONFIG.hostileObjects.toLocaleString('en')} objects from a third site, ${CONFIG.hostileRounds} round(s) per mode...`);
    // `none` is the control: another host page with the same frames and no SDK mounted.
    const pages = { sdk: await hostPage(), none: await hostPage() };
    pages.naive = pages.sdk;
    await call(pages.sdk, 'setupHostile', hostile.origin, true);
    await call(pages.none, 'setupHostile', hostile.origin, false);
    const samples = { sdk: [], none: [], naive: [] };
    const serialize = [];
    for (let round = 0; round < CONFIG.hostileRounds; round++) {
      for (const mode of round % 2 ? ['naive', 'none', 'sdk'] : ['sdk', 'none', 'naive']) {
        const p = pages[mode];
        await p.bringToFront();
        const frame = p.frames().find((f) => f.url().startsWith(hostile.origin));
        await call(p, 'armHostile', mode);
        const sent = await frame.evaluate((n) => window.attack(n), CONFIG.hostileObjects);
        const result = await call(p, 'hostileResult');
        if (mode === 'naive' && result.naiveReads !== 1)
          throw new Error(`the naive listener read ${result.naiveReads} hostile envelopes, expected 1`);
        samples[mode].push(result.maxGap);
        serialize.push(sent.serializeMs);
      }
    }
    await pages.sdk.close();
    await pages.none.close();
    const worst = Math.max(...samples.sdk);
    const worstNone = Math.max(...samples.none);
    details.push(
      '### 3. Hostile payload',
      '',
      `An SDK embed mounted and ready; a frame of a third site (\`${hostile.origin}\`) posts one perfect \`drilldown\` envelope whose \`value\` is an array of ${CONFIG.hostileObjects.toLocaleString('en')} objects (serialized by the sender in ${ms(median(serialize))}, median), then a small second message; the host counts the two by \`event.source\` only and waits 250 ms more. Longest gap between ticks of a 5 ms \`setInterval\` in the host, over the whole window.`,
      '',
      '| host | longest gap per round | worst |',
      '|---|---|---|',
      `| SDK only | ${samples.sdk.map(ms).join(', ')} | ${ms(worst)} |`,
      `| control: no SDK, no listener that reads (same frames) | ${samples.none.map(ms).join(', ')} | ${ms(worstNone)} |`,
      `| SDK + a naive listener that reads \`event.data\` first (for contrast) | ${samples.naive.map(ms).join(', ')} | ${ms(Math.max(...samples.naive))} |`,
      '',
    );
    // This Chromium alone stalls for a multi-megabyte message (the control page): the SDK is judged
    // against the same run's page without it, not against an absolute time that measures the browser.
    // Medians of the rounds: a single stall of a loaded machine's renderer is not the SDK's.
    const allowed = median(samples.none) * 1.25 + 5;
    row(
      3,
      'Hostile payload: longest host stall',
      `${ms(worst)} (worst)`,
      `no SDK: ${ms(worstNone)}; naive reader: ${ms(median(samples.naive))}`,
      `${ms(worst)}`,
      "≤ the no-SDK page's stall × 1.25 + 5 ms",
      worst <= allowed,
      `the longest stall was ${ms(worst)} against ${ms(allowed)} (the control page without any SDK stalled up to ${ms(worstNone)}, per round ${samples.none.map(ms).join(', ')}; the naive reader ${ms(median(samples.naive))}, median): the SDK stalls more than the control; check that foreign sources are dropped before \`event.data\` is read.`,
      {
        unit: 'ms',
        scale: 'log',
        bars: [
          { label: 'SDK (worst)', value: round(worst) },
          { label: 'no SDK (worst)', value: round(worstNone) },
          { label: 'a listener that reads event.data first (median)', value: round(median(samples.naive)) },
        ],
      },
    );
  }

  // ---- 4: mount and destroy --------------------------------------------------------------
  if (runs('lifecycle')) {
    log(`lifecycle: ${CONFIG.cycleWarmup} warm-up + ${CONFIG.cycles} cycles of mount → ready → destroy...`);
    const p = await hostPage();
    const cdp = await p.context().newCDPSession(p);
    const messageListeners = async () => {
      const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
      const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
      await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
      return listeners.filter((l) => l.type === 'message').length;
    };
    const heap = async () => {
      for (let i = 0; i < 3; i++) await cdp.send('HeapProfiler.collectGarbage');
      const usage = await cdp.send('Runtime.getHeapUsage');
      return { js: usage.usedSize, embedder: usage.embedderHeapUsedSize ?? 0 };
    };
    await call(p, 'mountDestroy', CONFIG.cycleWarmup);
    const before = { ...(await heap()), listeners: await messageListeners() };
    // The counts must see ours: one embed mounted shows one listener and one iframe.
    const held = { ...(await call(p, 'mountOne')), listeners: await messageListeners() };
    await call(p, 'destroyOne');
    const t0 = Date.now();
    const end = await call(p, 'mountDestroy', CONFIG.cycles);
    const seconds = (Date.now() - t0) / 1000;
    const after = { ...(await heap()), listeners: await messageListeners() };
    await p.close();
    if (held.listeners !== before.listeners + 1 || held.iframes !== 1 || held.listenerCount !== 1)
      throw new Error(`the counts do not see a mounted embed: ${JSON.stringify(held)}`);
    const growth = after.js - before.js;
    const growthEmbedder = after.embedder - before.embedder;
    const leftListeners = after.listeners - before.listeners;
    details.push(
      '### 4. Mount and destroy',
      '',
      `${CONFIG.cycles} cycles of \`embedDashboard\` → \`await ready\` → \`destroy()\` (${CONFIG.cycleWarmup} warm-up cycles first; fresh session each), ${seconds.toFixed(1)} s. \`message\` listeners on \`window\` counted with CDP \`DOMDebugger.getEventListeners\`; heap after three \`HeapProfiler.collectGarbage\`.`,
      '',
      '| | before | one embed mounted (check) | after the cycles |',
      '|---|---|---|---|',
      `| iframes in the document | 0 | ${held.iframes} | ${end.iframes} |`,
      `| \`listenerCount()\` | 0 | ${held.listenerCount} | ${end.listenerCount} |`,
      `| \`message\` listeners on \`window\` (CDP) | ${before.listeners} | ${held.listeners} | ${after.listeners} |`,
      `| JS heap used | ${kb(before.js)} | | ${kb(after.js)} (${growth >= 0 ? '+' : ''}${kb(growth)}) |`,
      `| embedder (DOM) heap used | ${kb(before.embedder)} | | ${kb(after.embedder)} (${growthEmbedder >= 0 ? '+' : ''}${kb(growthEmbedder)}) |`,
      '',
      `The core remembers every session id used on the page for 10 minutes (sessions are single-use page-wide and live 5 minutes): ${Math.round((growth + growthEmbedder) / CONFIG.cycles)} B per mount here, all cycles running within those 10 minutes. That this record is the growth was checked by hand when this benchmark was written: with ids padded by 2,000 characters the growth grew with them, and it nearly vanished with the record forgetting every id at once.`,
      '',
    );
    const ok = end.iframes === 0 && end.listenerCount === 0 && leftListeners === 0 && growth + growthEmbedder < 1024 * 1024;
    row(
      4,
      `Mount/destroy × ${CONFIG.cycles}: leftovers`,
      `${end.iframes} iframes, ${end.listenerCount} routed, ${leftListeners} listeners`,
      '0, 0, 0',
      `heap ${growth + growthEmbedder >= 0 ? '+' : ''}${kb(growth + growthEmbedder)}`,
      '0 left, < 1 MB',
      ok,
      `${end.iframes} iframe(s), ${end.listenerCount} routed embed(s) and ${leftListeners} \`message\` listener(s) left, heap ${kb(growth + growthEmbedder)} (JS ${kb(growth)}, DOM ${kb(growthEmbedder)}) after ${CONFIG.cycles} cycles, against 0 and < 1 MB.`,
    );
  }

  // ---- 5: time to first event ------------------------------------------------------------
  if (runs('first-event')) {
    log(`first event: ${CONFIG.firstEventWarmup} warm-up + ${CONFIG.firstEventPairs} pairs (ABBA order)...`);
    const p = await hostPage();
    const samples = { sdk: [], hand: [] };
    for (let i = 0; i < CONFIG.firstEventWarmup + CONFIG.firstEventPairs; i++) {
      const pair = {};
      for (const mode of i % 2 ? ['hand', 'sdk'] : ['sdk', 'hand']) {
        pair[mode] = await call(p, 'firstEvent', mode);
        await p.waitForTimeout(30);
      }
      if (i >= CONFIG.firstEventWarmup) for (const mode in pair) samples[mode].push(pair[mode]);
    }
    await p.close();
    const ratios = samples.sdk.map((x, i) => x / samples.hand[i]);
    const r5 = median(ratios);
    const v5 = ratioVerdict(ratios, 1.05);
    details.push(
      '### 5. Time to first event',
      '',
      `From the call that mounts (\`embedDashboard(...)\`, or \`createElement('iframe')\` for the hand-written page) to the \`ready\` handler, same host page, ${CONFIG.firstEventPairs} pairs in alternating order after ${CONFIG.firstEventWarmup} warm-up pairs.`,
      '',
      `| | median | min–max |`,
      '|---|---|---|',
      `| SDK | ${ms(median(samples.sdk))} | ${spread(samples.sdk, ms)} |`,
      `| hand-written iframe + listener | ${ms(median(samples.hand))} | ${spread(samples.hand, ms)} |`,
      `| per-pair ratio | ${times(r5)} | ${spread(ratios, times)} |`,
      '',
    );
    row(
      5,
      'Time to first event: SDK vs hand-written',
      ms(median(samples.sdk)),
      ms(median(samples.hand)),
      v5.figure,
      '≤ 1.05×',
      v5.verdict,
      `${times(r5)} against ≤ 1.05×: ${overBy(v5, 1.05)} (${ms(median(samples.sdk) - median(samples.hand))} at the median, while single loads range over ${spread([...samples.sdk, ...samples.hand], ms)}). Between the call and the iframe's navigation the SDK does a microtask hop and builds the URL, microseconds against a cross-site frame load, so a real excess would point at the frame setup (attributes, \`allow\`) rather than at JavaScript work.`,
      {
        unit: 'ms',
        bars: [
          { label: 'SDK', value: round(median(samples.sdk)) },
          { label: 'hand-written iframe + listener', value: round(median(samples.hand)) },
        ],
      },
    );
  }

  // ---- 7-9: resilience (bench/resilience.mjs) ---------------------------------------------
  if (runs('resilience'))
    await resilience({ context, root, quick, log, row, details, stats: { median, ms, times, spread, ratioVerdict, overBy, round } });

  // ---- 11-13: keep-alive and preload (bench/keepAlive.mjs) ------------------------------
  if (runs('keepalive'))
    await keepAlive({ context, root, quick, log, row, details, stats: { median, ms, times, spread, ratioVerdict, round } });

  // ---- 14: 50 embeds on a page, the page's DOM work (bench/domWork.mjs) --------------------
  if (runs('domwork')) await domWork({ context, root, quick, log, row, details, stats: { median, ms, spread, ratioVerdict, round } });

  // ---- 6: size ---------------------------------------------------------------------------
  if (runs('size')) {
    log('size...');
    const sizeBudgets = new Map();
    const out = execFileSync(process.execPath, [resolve(root, 'scripts/size.mjs')], { cwd: root, encoding: 'utf8' });
    const lines = out.split('\n');
    const table = lines
      .slice(
        0,
        lines.findIndex((l) => l.trim() === ''),
      )
      .filter(Boolean);
    // Columns by the header's names (size.mjs may add columns, and leaves empty budget cells).
    const [header = '', ...bundleLines] = table;
    const gzipColumn = header.includes('min+gzip (production)') ? 'min+gzip (production)' : 'min+gzip';
    const cellAt = (line, column) =>
      line
        .slice(header.indexOf(column))
        .trim()
        .split(/\s{2,}/)[0] ?? '';
    for (const line of bundleLines) {
      const label = line.slice(0, header.indexOf('min')).trim();
      const gzip = cellAt(line, gzipColumn);
      const [budget, verdict] = line
        .slice(header.indexOf('budget'))
        .trim()
        .split(/\s{2,}/);
      if (!budget) continue;
      sizeBudgets.set(label, budget);
      const over = parseInt(gzip, 10) - parseInt(budget, 10);
      row(
        6,
        `Size: ${label}`,
        gzip,
        '',
        gzip,
        `≤ ${budget}`,
        verdict === 'ok',
        `${gzip} min+gzip against a budget of ${budget}: over by ${over} B (${((over / parseInt(budget, 10)) * 100).toFixed(0)} %).`,
        {
          unit: 'B',
          bars: [
            { label: 'min+gzip', value: parseInt(gzip, 10) },
            { label: 'budget', value: parseInt(budget, 10) },
          ],
        },
      );
    }
    details.push('### 6. Size (`node scripts/size.mjs`)', '', '```', ...table, '```', '');
    if (misses.some((m) => m.startsWith('**6.'))) {
      const c = await composition();
      const coreFigure = parseInt(cellAt(bundleLines.find((l) => l.startsWith('core: embedDashboard')) ?? '', gzipColumn), 10);
      if (c.gzip !== coreFigure)
        throw new Error(
          `the composition's bundle is ${c.gzip} B min+gzip, scripts/size.mjs's ${coreFigure} B: they must be built the same way`,
        );
      const budgetOf = (prefix) => parseInt([...sizeBudgets].find(([label]) => label.startsWith(prefix))?.[1] ?? '', 10);
      const coreBudget = budgetOf('core: embedDashboard');
      const scriptTagBudget = budgetOf('script tag');
      details.push(
        `Where the bytes of \`embedDashboard\` come from (its production build bundled from \`packages/core/src\`, tree-shaken, minified): ${c.modules.map(([id, n]) => `${id} ${((n / c.rendered) * 100).toFixed(0)} %`).join(', ')}. String literals (mostly error and diagnostic messages) are ${c.strings} B of the ${c.min} B minified; with every literal emptied the bundle would still be ${c.gzipNoStrings} B min+gzip.`,
        '',
      );
      explanations.push(
        `**Why the size budgets are missed**: the core's \`embedDashboard\` path (validated catalog, URL builder with all launch options, controller with queue, sticky actions, reload, timeout, state, diagnostics, redaction) is ${c.gzip} B min+gzip; even without any message text it is ${c.gzipNoStrings} B${c.gzipNoStrings > coreBudget ? `, over the ${coreBudget} B budget, so no wording change fixes it` : `, within the ${coreBudget} B budget, so shorter messages alone would meet it`}. The script-tag bundle contains the whole core plus the custom elements, so it misses its ${scriptTagBudget} B budget for the same reason. See the composition under Details, and the cost of each feature in \`docs/size-budget.md\` (\`node scripts/sizeAblation.mjs\`).`,
      );
    }
  }
} finally {
  await browser.close();
  await Promise.all([host.close(), embed.close(), hostile.close()]);
}

// The composition of the embedDashboard bundle in the production build. The bytes are those of
// scripts/size.mjs's row (the built package resolved by name with the `production` condition,
// terser, gzip 9: the same pipeline, checked against its figure), and the string literals are
// counted in them (to tell message text from code). The share of each module comes from the
// sources bundled the same way with `__DEV__` false (the built file is one module).
async function composition() {
  const { rollup } = await import('rollup');
  const { nodeResolve } = await import('@rollup/plugin-node-resolve');
  const { default: esbuild } = await import('rollup-plugin-esbuild');
  const { default: terser } = await import('@rollup/plugin-terser');
  const { gzipSync } = await import('node:zlib');
  const minify = () => terser({ compress: { passes: 2 }, format: { comments: false } });
  const entry = (code) => ({
    name: 'entry',
    resolveId: (id) => (id === 'entry' ? resolve(root, 'entry.mjs') : null),
    load: (id) => (id === resolve(root, 'entry.mjs') ? code : null),
  });
  const production = await rollup({
    input: 'entry',
    plugins: [
      entry(`export { embedDashboard } from '@platform-embed/core';`),
      nodeResolve({ browser: true, exportConditions: ['production'] }),
      {
        name: 'node-env',
        transform: (code) => (code.includes('process.env.NODE_ENV') ? code.replaceAll('process.env.NODE_ENV', '"production"') : null),
      },
      minify(),
    ],
    onwarn: () => {},
  });
  const [built] = (await production.generate({ format: 'es' })).output;
  const src = resolve(root, 'packages/core/src');
  const sources = await rollup({
    input: 'entry',
    plugins: [
      entry(`export { embedDashboard } from ${JSON.stringify(resolve(src, 'index.ts'))};`),
      esbuild({ target: 'es2022', define: { __DEV__: 'false' } }),
    ],
    onwarn: () => {},
  });
  // As the package's production build ships it: internal names shortened, then minified.
  const { mangleInternals } = await import('../scripts/rollup.mjs');
  const [chunk] = (await sources.generate({ format: 'es', plugins: [mangleInternals(), minify()] })).output;
  const literal = /`(?:[^`\\]|\\.)*`|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
  const modules = Object.entries(chunk.modules)
    .filter(([, m]) => m.renderedLength)
    .map(([id, m]) => [id.slice(src.length + 1), m.renderedLength])
    .sort((a, b) => b[1] - a[1]);
  return {
    modules,
    rendered: modules.reduce((a, [, n]) => a + n, 0),
    min: built.code.length,
    gzip: gzipSync(built.code, { level: 9 }).length,
    strings: (built.code.match(literal) ?? []).reduce((a, x) => a + x.length, 0),
    gzipNoStrings: gzipSync(built.code.replace(literal, '""'), { level: 9 }).length,
  };
}

// ---- report -----------------------------------------------------------------------------
const head = ['#', 'benchmark', 'result', 'baseline', 'figure (spread)', 'target', 'verdict'];
const cells = rows.map((r) => [String(r.id), r.name, r.result, r.baseline, r.figure, r.target, r.verdict]);
const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
const line = (c) => c.map((x, i) => x.padEnd(widths[i])).join('  ');
log('');
log(line(head));
log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const c of cells) log(line(c));
log(
  misses.length ? `\n${misses.length} target(s) not met (missed or unresolved), see ${relative(root, resultsFile)}.` : '\nAll targets met.',
);

// The results as data (the site's charts and the README's figures read them), and RESULTS.md rendered from them.
const results = {
  command: `node bench/run.mjs${args.some((a) => a !== '--update') ? ' ' + args.filter((a) => a !== '--update').join(' ') : ''}`,
  generated: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    nproc: execSync('nproc', { encoding: 'utf8' }).trim(),
    model: cpus()[0]?.model ?? 'unknown CPU',
    memoryGB: totalmem() / 2 ** 30,
  },
  browser: {
    version: browser.version(),
    path: chromiumPath(),
    playwrightCore: JSON.parse(readFileSync(resolve(root, 'node_modules/playwright-core/package.json'), 'utf8')).version,
    node: process.versions.node,
  },
  origins: { host: host.origin, embed: embed.origin, hostile: hostile.origin },
  rows,
  misses,
  explanations,
  details,
};
mkdirSync(dirname(resultsFile), { recursive: true });
writeFileSync(resultsData, await format(JSON.stringify(results, null, 2), resultsData));
writeFileSync(resultsFile, await format(renderResults(results), resultsFile));
log(
  `Wrote ${relative(root, resultsData)} and ${relative(root, resultsFile)}${updateCommittedResults ? '' : ' (pnpm bench --update, or UPDATE_RESULTS=1, writes bench/results.json and bench/RESULTS.md)'}`,
);
