import { redactSession } from './url';

/*
 * The page-wide record of session ids. A session is single-use across all embeds of the page,
 * so an id handed out twice is refused before it reaches a frame. One record per page, shared
 * by every copy and version of the SDK loaded into it (an npm bundle beside the script tag,
 * micro-frontends): it lives behind a global symbol, and its shape is versioned so that a newer
 * copy reads an older one's record. A session also lives only 5 minutes, so ids older than 10
 * minutes are forgotten: memory stays bounded on a page that reloads its embeds all day.
 */

/** The shared record, version 1: each id used on the page, with when (`performance.now()`, the page's monotonic clock). */
interface SessionRecord {
  version: 1;
  used: Map<string, number>;
}

const RECORD = /* @__PURE__ */ Symbol.for('platform-embed.sessions');
const FORGET_AFTER = 600000;
// Created at the first use, never at import (the package has no side effects).
const used = (): Map<string, number> => ((globalThis as { [RECORD]?: SessionRecord })[RECORD] ??= { version: 1, used: new Map() }).used;

/**
 * Records `id` as used, after forgetting the expired ones.
 * @returns `false` when the id was used on this page already (it must not be loaded).
 */
export function claimSession(id: string): boolean {
  const ids = used();
  // A monotonic clock: a wall clock moved forward (sleep, NTP) must not forget ids early.
  const now = performance.now();
  // Oldest first (insertion order): stop at the first id still within its lifetime.
  for (const [old, at] of ids)
    if (now - at > FORGET_AFTER) ids.delete(old);
    else break;
  return !ids.has(id) && !!ids.set(id, now);
}

/** Whether `id` was used on this page (within the last 10 minutes), by any copy of the SDK. */
export const isUsedSession = (id: string): boolean => used().has(id);

/** Replaces every session id used on this page, and `own` (an embed's current one, even once forgotten), with `[redacted]`. */
export function redactSessions(text: string, own?: string): string {
  for (const id of [own, ...used().keys()]) if (id) text = text.split(id).join('[redacted]');
  return redactSession(text);
}
