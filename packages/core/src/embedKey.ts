/**
 * A stable key of what an embed shows: surface, base URL, ids, launch options, iframe
 * attributes and a session id string, compared by value with object keys sorted at every
 * depth. Functions (event handlers, a `session` function) are left out, as are
 * `readyTimeout` and `debug`, so a new identity of those never reloads an embed.
 *
 * Framework bindings reload the embed (with a fresh session) exactly when this key changes.
 * @example
 * ```ts
 * embedKey({ surface: 'dashboard', publicId: 'a', filters: { 'o.s': { value: 1 } } }) ===
 *   embedKey({ filters: { 'o.s': { value: 1 } }, publicId: 'a', surface: 'dashboard', onReady() {} }); // true
 * ```
 */
export function embedKey(options: object): string {
  const { readyTimeout: _t, debug: _d, ...what } = options as { readyTimeout?: unknown; debug?: unknown; session?: unknown };
  const keys: string[] = [];
  JSON.stringify(what, (key, value: unknown) => (keys.push(key), value));
  // A property list replacer: at every depth, only these keys, in this (sorted) order.
  return JSON.stringify([typeof what.session, what], keys.sort());
}
