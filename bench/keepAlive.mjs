// Keep-alive benchmarks, run by bench/run.mjs (`--only=keepalive`): a dashboard route left and
// entered again, shown by today's remount, by `keepAlive` (the core's binding, as a framework
// binding uses it) and by a hand-written integration, side by side in one page; the first entry
// after `preload()` against a cold one; and `keepAlive` on a page without `moveBefore`.
// Two servers of their own: the host on 127.0.0.1 (bench/pages/keepAlive.js) with its session
// endpoint, which counts the sessions it mints per tag and answers after SESSION_DELAY ms, and the
// embed on localhost (bench/pages/resilientEmbed.js), which counts the frame loads per dashboard.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { TYPES, hostPage, listen, listenResilientEmbed, serveFile } from './server.mjs';

const pagesDir = resolve(import.meta.dirname, 'pages');
// The host's session endpoint answers in 200 ms, as in bench/resilience.mjs: a real platform's
// session call takes 100-300 ms, and this is what keep-alive and preload take off the way back.
const SESSION_DELAY = 200;
// A route left and entered again this many times (after its first entry).
const REENTRIES = 10;
// The viewer looks at the dashboard this long before leaving, and at the other route ("Settings")
// this long before coming back.
const VIEW = 100;
const AWAY = 100;
// In the preload pairs, a preload that is not waited for: the viewer clicks this long after the
// hover that preloads (shorter than a session call and a frame load).
const HOVER = 120;
// The target of the issue: ready and shown within one animation frame, at most 50 ms.
const FRAME_LIMIT = 50;
const MODES = ['remount', 'keep', 'hand'];
// On a page without moveBefore, a preload entered this long after it is called (it waits for its adopter).
const BARE_PRELOAD_WAIT = 300;
// The entries of row 12: cold, or after a preload waited for until ready, or HOVER ms after it.
const PRELOAD_WAIT = { preload: 'ready', early: HOVER };
const KIND_LABELS = { cold: 'cold', preload: 'after a ready preload', early: `${HOVER} ms after a preload, not waited for` };
const LABELS = {
  remount: '(a) remount: `embedDashboard` on enter, `destroy()` on leave',
  keep: '(b) `keepAlive`: `createBinding()` mount on enter, unmount on leave',
  hand: '(c) hand-written: session fetch + iframe + listener on enter, all removed on leave',
};

// The same order rotated by `by`: no mode always goes first.
const rotate = (xs, by) => xs.map((_, i) => xs[(i + by) % xs.length]);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
// The distinct values of `xs`, for counts that should not vary.
const distinct = (xs) => [...new Set(xs)].join(' or ');

/**
 * Runs the keep-alive scenarios in `context` (a Playwright browser context) and adds their rows
 * and details through run.mjs's `row` and `details`, with its statistics helpers in `stats`.
 */
export async function keepAlive({ context, root, quick, log, row, details, stats }) {
  const { median, ms, times, spread, ratioVerdict, round } = stats;
  // A limit on a time, judged like a ratio: by the 95 % confidence interval of the median.
  const timeVerdict = (samples, limit) => {
    const v = ratioVerdict(samples, limit);
    return { ...v, figure: `${ms(v.m)} (95 % CI ${ms(v.lo)}–${ms(v.hi)})` };
  };
  // Why a time verdict is not met, in words.
  const overTime = (v, limit) =>
    v.verdict == 'MISSED'
      ? `over by ${ms(v.m - limit)} at the median, the whole 95 % confidence interval (${ms(v.lo)}–${ms(v.hi)}) beyond it`
      : `the 95 % confidence interval of the median (${ms(v.lo)}–${ms(v.hi)}) contains the target, so this run cannot tell; rerun on a quiet machine`;
  const minted = new Map();
  const loads = new Map();
  const bump = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
  const sessions = (tag) => minted.get(tag) ?? 0;
  const frameLoads = (id) => loads.get(id) ?? 0;
  let hostOrigin = '';
  const host = await listen('127.0.0.1', async (url, send, res) => {
    if (url.pathname === '/session') {
      // Counted when asked for; answered after the endpoint's work.
      const tag = url.searchParams.get('tag') ?? 'untagged';
      bump(minted, tag);
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get('delay') ?? 0)));
      send(200, 'application/json', JSON.stringify({ sessionId: `${tag}-${randomBytes(6).toString('hex')}` }));
      return true;
    }
    if (url.pathname === '/keepalive') {
      send(200, TYPES['.html'], hostPage('/bench/keepAlive.js', '<main id="outlet"></main>'));
      return true;
    }
    return serveFile(url, '/core/', resolve(root, 'packages/core/dist'), res) || serveFile(url, '/bench/', pagesDir, res);
  });
  hostOrigin = host.origin;
  const embed = await listenResilientEmbed(
    () => hostOrigin,
    (id) => bump(loads, id),
  );

  const open = async (withoutMoveBefore = false) => {
    const p = await context.newPage();
    p.on('pageerror', (e) => console.error('[page error]', e.message));
    p.on('response', (r) => r.status() >= 400 && console.error('[page response]', r.status(), r.url()));
    await p.goto(
      `${host.origin}/keepalive?embed=${encodeURIComponent(embed.origin)}&delay=${SESSION_DELAY}${withoutMoveBefore ? '&nomove' : ''}`,
    );
    await p.waitForFunction(() => 'keepAlive' in window);
    return p;
  };
  const call = (p, name, ...rest) => p.evaluate(([n, a]) => window.keepAlive[n](...a), [name, rest]);

  // One route per mode (id `<mode>-<round>`), entered once and then left and entered again
  // REENTRIES times, the modes taking turns (order rotated every visit). Every visit is counted:
  // the sessions minted and the frames loaded from its entry to the next one.
  async function routeRounds(p, modes, rounds, suffix = '') {
    const visits = Object.fromEntries(modes.map((m) => [m, []]));
    const leftovers = [];
    const routeId = (mode, round) => `${mode}-${round}${suffix}`;
    for (let round = 0; round < rounds; round++) {
      for (let visit = 0; visit <= REENTRIES; visit++)
        for (const mode of rotate(modes, round + visit)) {
          const id = routeId(mode, round);
          const before = { sessions: sessions(id), loads: frameLoads(id) };
          const entered = await call(p, 'enter', mode, id);
          await p.waitForTimeout(VIEW);
          const left = await call(p, 'leave', id);
          await p.waitForTimeout(AWAY);
          visits[mode].push({
            round,
            visit,
            ...entered,
            left,
            sessions: sessions(id) - before.sessions,
            loads: frameLoads(id) - before.loads,
          });
        }
      leftovers.push(
        await call(
          p,
          'finish',
          modes.map((mode) => routeId(mode, round)),
        ),
      );
    }
    return { visits, leftovers };
  }
  const reentries = (vs) => vs.filter((v) => v.visit > 0);
  const firsts = (vs) => vs.filter((v) => v.visit === 0);
  // Per visit (same round and visit number), side by side.
  const pairRatios = (a, b, key = 'frameMs') => reentries(a).map((v, i) => v[key] / reentries(b)[i][key]);
  const perRound = (vs, key) => {
    const byRound = new Map();
    for (const v of reentries(vs)) byRound.set(v.round, (byRound.get(v.round) ?? 0) + v[key]);
    return [...byRound.values()];
  };
  const left = (l) => l.iframes + l.parked + l.routed + l.slots;

  try {
    // ---- 11: a dashboard route left and entered again ------------------------------------
    const rounds = quick ? 1 : 3;
    log(
      `keepalive/route: ${rounds} round(s) of a route entered, then left and entered again ${REENTRIES} times, ${MODES.length} modes in turn (session endpoint ${SESSION_DELAY} ms)...`,
    );
    const p = await open();
    if (!(await call(p, 'canMove'))) throw new Error('this Chromium has no Element.prototype.moveBefore');
    const { visits, leftovers } = await routeRounds(p, MODES, rounds);
    await p.close();

    const fm = (mode) => reentries(visits[mode]).map((v) => v.frameMs);
    const readyMs = (mode) => reentries(visits[mode]).map((v) => v.ms);
    const keptFrames = reentries(visits.keep).filter((v) => v.sameIframe).length;
    const keptWhileAway = visits.keep.filter((v) => v.left.kept && v.left.inLot && v.left.parked === 1).length;
    const goneWhileAway = (mode) => visits[mode].filter((v) => !v.left.kept).length;
    const describe = (l) => `${l.iframes} iframes, ${l.parked} parked, ${l.routed} routed, ${l.slots} parking slots`;
    const list = (xs) => xs.join(', ');
    details.push(
      '### 11. A dashboard route left and entered again',
      '',
      `One host page with one route outlet, as a router has: entering the dashboard route renders a route element with a 640×360 container into the outlet and shows the dashboard there; leaving removes the element (a "Settings" route takes its place). Each round enters the route once, then leaves it and enters it again ${REENTRIES} times; the viewer stays ${VIEW} ms on the dashboard and ${AWAY} ms away. The three modes take turns, visit by visit, in an order rotated every visit, ${rounds} round(s) (a new dashboard per round and mode). The host's session endpoint answers in ${SESSION_DELAY} ms (a real platform takes 100–300 ms) and counts what it mints; the embed's server counts the frames it serves. Time: from entering (before the route element is created) until the embed is \`ready\` and its iframe is in the new container with a size ("ready"), and until the first animation frame after that ("painted", the figure judged). Re-entries only; first entries listed apart.`,
      '',
      `| mode | sessions per round, re-entries | frame loads per round, re-entries | first entry per round: sessions/frame loads | ready, median (min–max) | painted, median (min–max) |`,
      '|---|---|---|---|---|---|',
      ...MODES.map(
        (m) =>
          `| ${LABELS[m]} | ${list(perRound(visits[m], 'sessions'))} | ${list(perRound(visits[m], 'loads'))} | ${list(firsts(visits[m]).map((v) => `${v.sessions}/${v.loads}`))} | ${ms(median(readyMs(m)))} (${spread(readyMs(m), ms)}) | ${ms(median(fm(m)))} (${spread(fm(m), ms)}) |`,
      ),
      `| per-visit ratio (b)/(a), painted | | | | | ${times(median(pairRatios(visits.keep, visits.remount)))} (${spread(pairRatios(visits.keep, visits.remount), times)}) |`,
      `| per-visit ratio (b)/(c), painted | | | | | ${times(median(pairRatios(visits.keep, visits.hand)))} (${spread(pairRatios(visits.keep, visits.hand), times)}) |`,
      `| per-visit ratio (c)/(a), painted | | | | | ${times(median(pairRatios(visits.hand, visits.remount)))} (${spread(pairRatios(visits.hand, visits.remount), times)}) |`,
      '',
      `While away: (b)'s iframe stayed in the page, in the parking lot, with 1 embed parked, after ${keptWhileAway} of ${visits.keep.length} leaves, and the same iframe element was shown again on ${keptFrames} of ${reentries(visits.keep).length} re-entries; the iframe of (a) and (c) was gone after ${goneWhileAway('remount')} and ${goneWhileAway('hand')} of ${visits.remount.length} leaves. Left in the page after each round, once the three routes ended (the kept embed destroyed): ${distinct(leftovers.map(describe))}.`,
      '',
    );
    const keepSessions = perRound(visits.keep, 'sessions');
    const keepLoads = perRound(visits.keep, 'loads');
    const firstOk = firsts(visits.keep).every((v) => v.sessions === 1 && v.loads === 1);
    const clean = leftovers.every((l) => left(l) === 0);
    row(
      11,
      `Keep-alive: sessions minted re-entering a route ${REENTRIES}×`,
      `${sum(keepSessions)} (keepAlive)`,
      `remount: ${sum(perRound(visits.remount, 'sessions'))}; hand-written: ${sum(perRound(visits.hand, 'sessions'))}`,
      `per round: sessions ${list(keepSessions)}, frame loads ${list(keepLoads)}, same iframe ${keptFrames}/${reentries(visits.keep).length}`,
      '0 after the first, no reload, nothing left',
      sum(keepSessions) === 0 && sum(keepLoads) === 0 && firstOk && clean,
      `over ${REENTRIES} re-entries per round, \`keepAlive\` minted ${list(keepSessions)} session(s) and loaded ${list(keepLoads)} frame(s) per round (first entries: ${list(firsts(visits.keep).map((v) => `${v.sessions} session(s), ${v.loads} load(s)`))}); the iframe was kept while away after ${keptWhileAway} of ${visits.keep.length} leaves; left in the page after the rounds: ${leftovers.map(describe).join('; ')}.`,
      {
        unit: 'sessions',
        bars: [
          { label: 'keepAlive', value: sum(keepSessions) },
          { label: 'remount', value: sum(perRound(visits.remount, 'sessions')) },
          { label: 'hand-written', value: sum(perRound(visits.hand, 'sessions')) },
        ],
      },
    );
    const vKeep = timeVerdict(fm('keep'), FRAME_LIMIT);
    const vsRemount = ratioVerdict(pairRatios(visits.keep, visits.remount), 1);
    row(
      '11b',
      'Keep-alive: re-entry to ready and painted',
      `${ms(vKeep.m)} (ready ${ms(median(readyMs('keep')))})`,
      `remount: ${ms(median(fm('remount')))}; hand-written: ${ms(median(fm('hand')))}`,
      `${vKeep.figure}; vs remount ${times(vsRemount.m)} (95 % CI ${vsRemount.lo.toFixed(3)}–${vsRemount.hi.toFixed(3)})`,
      `≤ ${FRAME_LIMIT} ms (one frame)`,
      vKeep.verdict,
      `the median re-entry took ${ms(vKeep.m)} to the painted frame against ≤ ${FRAME_LIMIT} ms: ${overTime(vKeep, FRAME_LIMIT)} (ready itself: ${ms(median(readyMs('keep')))}, ${spread(readyMs('keep'), ms)}).`,
      {
        unit: 'ms',
        bars: [
          { label: 'keepAlive', value: round(vKeep.m) },
          { label: 'remount', value: round(median(fm('remount'))) },
          { label: 'hand-written', value: round(median(fm('hand'))) },
        ],
      },
    );

    // ---- 12: the first entry after preload, against a cold one ---------------------------
    const pairs = quick ? 6 : 20;
    const kinds = ['cold', 'preload', 'early'];
    log(`keepalive/preload: ${pairs} rounds of a cold entry, an entry after a ready preload and one ${HOVER} ms after a preload...`);
    const entries = Object.fromEntries(kinds.map((k) => [k, []]));
    {
      const page = await open();
      for (let i = 0; i < pairs; i++)
        for (const kind of rotate(kinds, i)) {
          const id = `${kind}-${i}`;
          const start = sessions(id);
          const startLoads = frameLoads(id);
          const preloaded = kind in PRELOAD_WAIT ? await call(page, 'preload', id, PRELOAD_WAIT[kind]) : undefined;
          const before = { sessions: sessions(id), loads: frameLoads(id) };
          const entered = await call(page, 'enter', 'keep', id);
          const after = { sessions: sessions(id), loads: frameLoads(id) };
          const end = await call(page, 'finish', [id]);
          entries[kind].push({
            ...entered,
            preloaded,
            atEnter: after.sessions - before.sessions,
            loadsAtEnter: after.loads - before.loads,
            total: after.sessions - start,
            totalLoads: after.loads - startLoads,
            end,
          });
          await page.waitForTimeout(AWAY);
        }
      await page.close();
    }
    const paint = (kind) => entries[kind].map((e) => e.frameMs);
    const ratio = (a, b) => entries[a].map((e, i) => e.frameMs / entries[b][i].frameMs);
    const counted = (kind, key) => entries[kind].map((e) => e[key]);
    const adopted = (kind) => entries[kind].filter((e) => e.adoptedPreload).length;
    const preloadLeft = Math.max(...kinds.flatMap((k) => entries[k].map((e) => left(e.end))));
    const earlyStatuses = distinct(entries.early.map((e) => e.preloaded.status));
    details.push(
      '### 12. The first entry after `preload()`, against a cold one',
      '',
      `${pairs} rounds of three entries of the dashboard route (\`keepAlive\` binding, each a new dashboard), in an order rotated every round: cold (nothing before); after \`preload('dashboard', ...)\` called as on a hover of the route's link and waited for until ready (${ms(median(entries.preload.map((e) => e.preloaded.readyMs)))} median from the call); and entered ${HOVER} ms after the preload call, not waited for (the preloads were ${earlyStatuses} then). Session endpoint ${SESSION_DELAY} ms. Same times as row 11: from entering to ready and shown, and to the next animation frame ("painted"). Sessions and frame loads counted by the servers from the entry to the end of the measure; the embed is destroyed after each entry.`,
      '',
      '| entry | ready, median (min–max) | painted, median (min–max) | sessions minted from the entry | sessions, frame loads per dashboard (preload included) | adopted the preloaded handle |',
      '|---|---|---|---|---|---|',
      ...kinds.map(
        (k) =>
          `| ${KIND_LABELS[k]} | ${ms(median(counted(k, 'ms')))} (${spread(counted(k, 'ms'), ms)}) | ${ms(median(paint(k)))} (${spread(paint(k), ms)}) | ${sum(counted(k, 'atEnter'))} in ${pairs} | ${distinct(counted(k, 'total'))}, ${distinct(counted(k, 'totalLoads'))} | ${k === 'cold' ? '' : `${adopted(k)}/${pairs}`} |`,
      ),
      `| per-round ratio, ready preload / cold | | ${times(median(ratio('preload', 'cold')))} (${spread(ratio('preload', 'cold'), times)}) | | | |`,
      `| per-round ratio, ${HOVER} ms after a preload / cold | | ${times(median(ratio('early', 'cold')))} (${spread(ratio('early', 'cold'), times)}) | | | |`,
      '',
      `After a ready preload, the frames loaded from the entry on: ${sum(counted('preload', 'loadsAtEnter'))} in ${pairs}. Left in the page after each entry was destroyed, worst: ${preloadLeft} (iframes, parked, routed embeds and parking slots).`,
      '',
    );
    const vPre = timeVerdict(paint('preload'), FRAME_LIMIT);
    const preloadRatio = ratioVerdict(ratio('preload', 'cold'), 1);
    const preloadOk =
      sum(counted('preload', 'atEnter')) === 0 &&
      sum(counted('preload', 'loadsAtEnter')) === 0 &&
      adopted('preload') === pairs &&
      preloadLeft === 0;
    row(
      12,
      'Preload, then enter: to ready and painted',
      `${ms(vPre.m)}, ${sum(counted('preload', 'atEnter'))} sessions at entry`,
      `cold: ${ms(median(paint('cold')))}, ${sum(counted('cold', 'atEnter'))} sessions`,
      `${vPre.figure}; vs cold ${times(preloadRatio.m)} (95 % CI ${preloadRatio.lo.toFixed(3)}–${preloadRatio.hi.toFixed(3)})`,
      `≤ ${FRAME_LIMIT} ms, 0 sessions at entry`,
      preloadOk ? vPre.verdict : 'MISSED',
      preloadOk
        ? `the median entry after a ready preload took ${ms(vPre.m)} to the painted frame against ≤ ${FRAME_LIMIT} ms: ${overTime(vPre, FRAME_LIMIT)}.`
        : `after a ready preload, the entries minted ${sum(counted('preload', 'atEnter'))} session(s), loaded ${sum(counted('preload', 'loadsAtEnter'))} frame(s) and adopted the preloaded handle ${adopted('preload')}/${pairs} times, and left up to ${preloadLeft} iframes, parked or routed embeds and parking slots once destroyed, against 0, 0, every time and 0 (painted ${vPre.figure}).`,
      {
        unit: 'ms',
        bars: [
          { label: 'after a preload', value: round(vPre.m) },
          { label: 'cold', value: round(median(paint('cold'))) },
        ],
      },
    );

    // ---- 13: keepAlive without moveBefore ------------------------------------------------
    log(`keepalive/no-moveBefore: 1 round of remount and keepAlive on a page without Element.prototype.moveBefore...`);
    const bare = await open(true);
    if (await call(bare, 'canMove')) throw new Error('the page still has Element.prototype.moveBefore');
    const without = await routeRounds(bare, ['remount', 'keep'], 1, '-nomove');
    // And a preload there: documented to mint nothing before its adopter shows it.
    const barePreloads = [];
    for (let i = 0; i < (quick ? 2 : 4); i++) {
      const id = `preload-${i}-nomove`;
      const preloaded = await call(bare, 'preload', id, BARE_PRELOAD_WAIT);
      const before = { sessions: sessions(id), loads: frameLoads(id) };
      const entered = await call(bare, 'enter', 'keep', id);
      const end = await call(bare, 'finish', [id]);
      barePreloads.push({ ...entered, preloaded, before, after: sessions(id), end });
      await bare.waitForTimeout(AWAY);
    }
    await bare.close();
    const nm = (mode) => reentries(without.visits[mode]).map((v) => v.frameMs);
    const nmRatios = pairRatios(without.visits.keep, without.visits.remount);
    const nmKept = without.visits.keep.filter((v) => v.left.kept).length;
    const nmParked = without.visits.keep.filter((v) => v.left.parked === 1).length;
    details.push(
      '### 13. `keepAlive` without `moveBefore` (Safari today)',
      '',
      `Row 11's route on a page that deletes \`Element.prototype.moveBefore\` before the core loads, one round, (a) and (b) in turn. Without \`moveBefore\` an iframe cannot move without loading again, so the core parks the embed cold (handle, kept state and \`on()\` subscribers kept, frame dropped) and the adoption loads a new frame with a fresh session.`,
      '',
      `| mode | sessions, re-entries | frame loads, re-entries | ready, median (min–max) | painted, median (min–max) |`,
      '|---|---|---|---|---|',
      ...['remount', 'keep'].map(
        (m) =>
          `| ${LABELS[m]} | ${sum(perRound(without.visits[m], 'sessions'))} | ${sum(perRound(without.visits[m], 'loads'))} | ${ms(median(reentries(without.visits[m]).map((v) => v.ms)))} (${spread(
            reentries(without.visits[m]).map((v) => v.ms),
            ms,
          )}) | ${ms(median(nm(m)))} (${spread(nm(m), ms)}) |`,
      ),
      `| per-visit ratio (b)/(a), painted | | | | ${times(median(nmRatios))} (${spread(nmRatios, times)}) |`,
      '',
      `While away, (b) was parked after ${nmParked} of ${without.visits.keep.length} leaves, its iframe still in the page after ${nmKept}; the same iframe element shown again on ${reentries(without.visits.keep).filter((v) => v.sameIframe).length} of ${REENTRIES} re-entries. Left in the page after the round: ${without.leftovers.map(describe).join('; ')}.`,
      '',
      `A preload on that page, entered ${BARE_PRELOAD_WAIT} ms later (${barePreloads.length} times): sessions minted and frames loaded before the entry ${barePreloads.map((e) => `${e.before.sessions}/${e.before.loads}`).join(', ')} (status then: ${distinct(barePreloads.map((e) => e.preloaded.status))}); after it, ${barePreloads.map((e) => e.after).join(', ')} session(s); ready and painted ${barePreloads.map((e) => ms(e.frameMs)).join(', ')}, the preloaded handle adopted ${barePreloads.filter((e) => e.adoptedPreload).length}/${barePreloads.length}; left after each: ${distinct(barePreloads.map((e) => left(e.end)))}.`,
      '',
    );
    row(
      13,
      'Keep-alive without moveBefore (informational)',
      `${ms(median(nm('keep')))}, ${sum(perRound(without.visits.keep, 'sessions'))} sessions`,
      `remount: ${ms(median(nm('remount')))}, ${sum(perRound(without.visits.remount, 'sessions'))} sessions`,
      `vs remount ${times(median(nmRatios))} (${spread(nmRatios, times)}); frame loads ${sum(perRound(without.visits.keep, 'loads'))}`,
      '(informational)',
      null,
      undefined,
      {
        unit: 'ms',
        bars: [
          { label: 'keepAlive without moveBefore', value: round(median(nm('keep'))) },
          { label: 'remount', value: round(median(nm('remount'))) },
        ],
      },
    );
  } finally {
    await Promise.all([host.close(), embed.close()]);
  }
}
