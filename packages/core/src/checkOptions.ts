import { EMBED_OPTIONS, type AnyOptions, type EmbedOptionSpec } from './embedOptions';
import { EVENT_SCHEMAS, type Surface } from './catalog';
import { EmbedError, refuse } from './errors';
import { KEPT_STATE } from './keptState';
import { LAUNCH_OPTIONS } from './launchOptions';
import { normalizeBaseUrl } from './origin';
import { entriesOf, eventProp, type EventName } from './protocol';
import { compileOptions, type FieldDescriptor, type OptionKind } from './rules';
import { buildEmbedUrl } from './url';

/*
 * The checks of an embed's options, all made before anything changes: a refused option throws
 * and leaves the embed as it was. In every build: the container, the base URL, the ids, the
 * timeouts, `retry` and `sandbox` (refused with the code and the option's name). In development also every
 * other rule of the option tables, the handlers, unknown option names (with a did-you-mean) and
 * each refusal's whole sentence with the fix.
 */

// The names the SDK reads: its own options, the launch options, the kept state and the catalog's handlers.
const known = (): Set<string> =>
  new Set([
    ...Object.keys(EMBED_OPTIONS),
    ...Object.keys(LAUNCH_OPTIONS),
    ...Object.keys(KEPT_STATE),
    ...Object.keys(EVENT_SCHEMAS).map((name) => eventProp(name as EventName)),
    'onEvent',
  ]);

// Development: the rules of every option without a surface of its own (the URL builder checks the ids), compiled once.
let checkRules: ((options: Record<string, unknown>) => string | undefined) | undefined;
const rules = () => {
  const schema: Record<string, FieldDescriptor<OptionKind>> = { onEvent: 'function?' };
  for (const [name, spec] of entriesOf<EmbedOptionSpec>(EMBED_OPTIONS)) if (spec.check && !spec.surfaces) schema[name] = spec.check;
  for (const name of Object.keys(EVENT_SCHEMAS)) schema[eventProp(name as EventName)] = 'function?';
  return compileOptions(schema);
};

/**
 * The closest of `names` to `name`, a misspelling of it: the same letters in another case, or at
 * most two edits away (the did-you-mean of unknown options, and of the elements' attributes).
 * @internal
 */
export const closestName = (name: string, names: Iterable<string>): string | undefined => {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] == b[j - 1] ? 0 : 1));
      row = next;
    }
    return row[b.length]!;
  };
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of names) {
    const d = candidate.toLowerCase() == name.toLowerCase() ? 0 : distance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
};

// Development: an unknown option is ignored, so say so once per name (a binding checks its options on every render).
const warned = new Set<string>();
const warnUnknown = (options: Record<string, unknown>) => {
  let names: Set<string> | undefined;
  for (const name in options)
    if (!warned.has(name) && !(names ??= known()).has(name)) {
      warned.add(name);
      const suggestion = closestName(name, names);
      console.warn(`[platform-embed] unknown option "${name}" is ignored${suggestion ? `: did you mean "${suggestion}"?` : ''}`);
    }
};

/**
 * The mistakes in a custom element's attributes, before its options are read: a required
 * attribute missing (in development, with the misspelling that is there instead), or, on an
 * element without a session, an unknown attribute that reads like a session's (`sesion-url`: the
 * embed would open private mode, where the viewer signs in). The first is returned as an
 * `invalid-option` error naming the attribute. In development, also a did-you-mean warning
 * (once per name) for each unknown attribute that resembles one of the element's.
 * @param tag the element's tag name
 * @param unknown its attributes that are none of the element's (nor a property of it: `title`, `part`, ...)
 * @param known the element's attributes
 * @param missing the required attributes it lacks
 * @param session whether it has a session
 * @internal
 */
export function checkAttributes(
  tag: string,
  unknown: string[],
  known: string[],
  missing: string[],
  session: boolean,
): EmbedError | undefined {
  // An attribute that reads like a session's, on an element without one.
  const typo = !session && unknown.find((name) => /sess|sion/.test(name));
  let problem = missing[0];
  if (problem && __DEV__) {
    const instead = closestName(problem, unknown);
    problem = `<${tag}> needs a ${problem} attribute${instead ? ` (${instead} is not one: did you mean ${problem}?)` : ''}`;
  }
  if (!problem && typo)
    problem = __DEV__
      ? `${typo} is not an attribute of <${tag}>: did you mean ${closestName(typo, known) ?? 'session-url'}? (Without a session it opens in private mode, where the viewer signs in.)`
      : typo;
  if (__DEV__)
    for (const name of unknown) {
      const like = closestName(name, known);
      // (A misspelling the error names is not warned about too.)
      if (like && !warned.has(name) && !missing.includes(like) && name != typo) {
        warned.add(name);
        console.warn(`[platform-embed] <${tag}>: unknown attribute "${name}" is ignored: did you mean "${like}"?`);
      }
    }
  if (problem) return new EmbedError('invalid-option', problem);
}

// The element the embed mounts into: the one given, or the one the selector finds now.
const resolveContainer = (container: unknown): HTMLElement => {
  let box: unknown = container;
  try {
    if (typeof container == 'string') box = document.querySelector(container);
  } catch {}
  if (!(box as HTMLElement | null)?.appendChild)
    throw new EmbedError(
      'no-container',
      !__DEV__
        ? 'container'
        : container == null
          ? 'container is required: pass the element to mount into, or a CSS selector for it'
          : typeof container == 'string'
            ? `container "${container}" matches no element: render it before embedding, or pass the element itself`
            : `container must be an element or a CSS selector (got ${typeof container})`,
    );
  return box as HTMLElement;
};

/**
 * Checks an embed's options whole, before anything changes.
 * @returns the tenant origin and the container element the options name
 * @throws {EmbedError} `invalid-option` or `no-container`, saying what to pass
 */
export function checkOptions(surface: Surface, options: AnyOptions): [origin: string, container: HTMLElement] {
  const container = resolveContainer(options.container);
  if (__DEV__) {
    refuse((checkRules ??= rules())(options));
    warnUnknown(options);
  }
  const session = options.session ?? options.initialSession;
  // Built once with a placeholder session, so a bad id or launch option throws now, not at load.
  buildEmbedUrl(surface, { ...options, session: session === undefined ? session : '-' });
  return [normalizeBaseUrl(options.baseUrl), container];
}
