import { redactSession } from './url';

/*
 * The page-wide registry of session ids. A session is single-use across all embeds of the
 * page, so an id handed out twice is refused before it reaches a frame. A session also lives
 * only 5 minutes, so ids older than 10 minutes are forgotten: memory stays bounded on a page
 * that reloads its embeds all day, and the platform refuses such an id anyway.
 */

const used = new Map<string, number>();
const FORGET_AFTER = 600000;

/**
 * Records `id` as used, after forgetting the expired ones.
 * @returns `false` when the id was used on this page already (it must not be loaded).
 */
export function claimSession(id: string): boolean {
  // A monotonic clock: a wall clock moved forward (sleep, NTP) must not forget ids early.
  const now = performance.now();
  // Oldest first (insertion order): stop at the first id still within its lifetime.
  for (const [old, at] of used)
    if (now - at > FORGET_AFTER) used.delete(old);
    else break;
  return !used.has(id) && !!used.set(id, now);
}

/** Whether `id` was used on this page (within the last 10 minutes). */
export const isUsedSession = (id: string): boolean => used.has(id);

/** Replaces every session id used on this page, and `own` (an embed's current one, even once forgotten), with `[redacted]`. */
export function redactSessions(text: string, own?: string): string {
  for (const id of [own, ...used.keys()]) if (id) text = text.split(id).join('[redacted]');
  return redactSession(text);
}
