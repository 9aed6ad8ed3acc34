import { LAUNCH_OPTIONS, type LaunchOptionSpec } from '@platform-embed/core';

/**
 * The launch options an embed page was opened with, read from its URL as the platform reads
 * them, one property per option of the table: each flag (`allowExport`, `showDashboardHeader`,
 * ...) resolved against its default, `locale` (or `null`), and each keyed option (`filters`,
 * `timeGrains`, `fieldSwitches`) as `view.dimension` to value for the controls the dashboard has.
 */
export interface LaunchOptions {
  [option: string]: boolean | string | null | Record<string, unknown> | string[];
  /** Parameters that were dropped: no matching control on the dashboard, or a value that breaks the rule. */
  ignored: string[];
}

/** The dashboard's controls, by keyed option name (`filters`, `timeGrains`, `fieldSwitches`). */
export type DashboardControls = Partial<Record<string, readonly string[]>>;

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a keyed option's value follows the rule of the table: one of a list, or a non-empty string. */
function valueFollowsRule(value: string, rule: LaunchOptionSpec['value']): boolean {
  if (Array.isArray(rule)) return rule.includes(value);
  if (rule === 'non-empty string') return value.trim() !== '';
  return true;
}

/**
 * Reads the launch options of an embed URL, derived from the SDK's launch-option table
 * (`LAUNCH_OPTIONS`), so the mock and the SDK cannot disagree: a flag takes the value opposite
 * to its default only from that exact literal (`allowExport=true`, `showDashboardHeader=false`),
 * keyed options are kept only for controls the dashboard has and values that follow the rule.
 */
export function readLaunchOptions(params: URLSearchParams, controls: DashboardControls): LaunchOptions {
  const result: LaunchOptions = { ignored: [] };
  const members: Record<string, Record<string, unknown>> = {};
  const specs = Object.entries(LAUNCH_OPTIONS) as [string, LaunchOptionSpec][];
  for (const [name, spec] of specs) {
    if (spec.kind === 'boolean') {
      const opposite = !spec.default;
      result[name] = params.get(name) === String(opposite) ? opposite : Boolean(spec.default);
    } else if (spec.kind === 'string') result[name] = params.get(name) || null;
    else result[name] = members[name] = {};
  }
  for (const [key, value] of params) {
    const match = specs.find(([, spec]) => spec.prefix !== undefined && key.startsWith(spec.prefix));
    if (!match) continue;
    const [name, spec] = match;
    const member = key.slice(spec.prefix!.length);
    const rule = spec.value;
    const parsed = rule === 'JSON object such as {"value":"completed"}' ? parseJsonObject(value) : value;
    const valid = parsed !== undefined && valueFollowsRule(value, rule);
    if (valid && /^[^.]+\.[^.]+$/.test(member) && controls[name]?.includes(member)) members[name]![member] = parsed;
    else result.ignored.push(key);
  }
  return result;
}
