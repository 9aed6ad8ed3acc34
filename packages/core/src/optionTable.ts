import { EVENT_SCHEMAS, eventProp, type ActionName, type EventName } from './protocol';
import { LAUNCH_OPTIONS, buildEmbedUrl, compileOptions, refuse, type LaunchOptionSpec } from './url';

/** The option's change reloads the embed in a new iframe with a fresh session. */
export const RELOAD = 0;
/** The option's change is applied to the current iframe (presentation). */
export const PRESENT = 1;
/**
 * What a change of an option means on a mounted embed: reload, present, or an action (its name
 * and the payload field that carries the value, none when the value is the payload). Options
 * not listed (handlers, the `session` function, `onDiagnostic`, `debug`, timeouts, `retry`)
 * are swapped in place: the next event or load uses the new value.
 */
export type Change = typeof RELOAD | typeof PRESENT | readonly [ActionName, string?];

/** The option table: what each option's change means, the launch options' derived from {@link LAUNCH_OPTIONS}. */
export const CHANGES: Record<string, Change | undefined> = /* @__PURE__ */ (() => {
  const table: Record<string, Change> = {
    container: RELOAD,
    baseUrl: RELOAD,
    publicId: RELOAD,
    deploymentId: RELOAD,
    sandbox: RELOAD,
    allow: RELOAD,
    referrerPolicy: RELOAD,
    title: PRESENT,
    className: PRESENT,
    style: PRESENT,
    colorScheme: ['set-color-scheme', 'scheme'],
    theme: ['set-theme'],
    path: ['navigate', 'path'],
  };
  for (const [name, spec] of Object.entries(LAUNCH_OPTIONS) as [string, LaunchOptionSpec][])
    table[name] = spec.action ? [spec.action, spec.action == 'set-locale' ? 'locale' : undefined] : RELOAD;
  return table;
})();

let checkOwn: ((options: Record<string, unknown>) => string | undefined) | undefined;

/** Checks the controller's options (development only: they are the host's code), then those the URL is built from. */
export function checkOptions(surface: string, o: Record<string, unknown>): void {
  // Compiled once, at the first check: a framework binding checks its options on every render.
  refuse(
    (checkOwn ??= compileOptions({
      session: 'non-empty string|function?',
      initialSession: 'non-empty string?',
      sandbox: 'string with allow-scripts and allow-same-origin?',
      readyTimeout: 'number>=0?',
      sessionTimeout: 'number>=0?',
      retry: 'integer>=0|boolean?',
      debug: 'boolean|function?',
      onDiagnostic: 'function?',
      path: 'string?',
      theme: 'object?',
      loading: 'eager or lazy?',
      onEvent: 'function?',
      ...Object.fromEntries(Object.keys(EVENT_SCHEMAS).map((name) => [eventProp(name as EventName), 'function?'])),
    }))(o),
  );
  const session = o.session ?? o.initialSession;
  // Built once with a placeholder session, so a bad launch option throws now, not at load.
  buildEmbedUrl(surface as 'dashboard', { ...(o as { baseUrl: string }), session: session === undefined ? session : '-' });
}
