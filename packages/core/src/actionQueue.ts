import { actionEnvelope, type ActionMessage, type ColorScheme, type EmbedTheme } from './protocol';
import type { FilterValue } from './url';

/**
 * What the host has set on an embed, by option or by action, kept across reloads: the color
 * scheme, theme, locale, filters (by `view.dimension`) and the in-embed path (also the last
 * one the embed reported in `navigate` or `view`).
 */
export interface HostState {
  colorScheme?: ColorScheme;
  theme?: EmbedTheme;
  locale?: string;
  filters: { [member: string]: FilterValue };
  path?: string;
}

const json = JSON.stringify;

/**
 * The actions of one embed: the host state they set, and those that wait for `ready`. A new
 * frame is brought to the host state twice over: its URL carries the locale and filters, and
 * right after `ready` the rest (scheme, theme, path, and whatever changed since the URL was
 * built) is sent, followed by the other actions sent before `ready`, in order.
 */
export function createActionQueue(state: HostState) {
  let pending: ActionMessage[] = [];
  // The locale and filters of the current frame's URL.
  let inUrl: Pick<HostState, 'locale' | 'filters'> = { filters: {} };
  return {
    state,
    /** Records what an action sets. @returns whether it set host state (then it is replayed, not queued). */
    record(message: ActionMessage): boolean {
      const p = message.payload as Record<string, unknown>;
      switch (message.type) {
        case 'platform:action:set-color-scheme':
          return !!(state.colorScheme = p.scheme as ColorScheme);
        case 'platform:action:set-theme':
          return !!(state.theme = p as EmbedTheme);
        case 'platform:action:set-locale':
          return !!(state.locale = p.locale as string);
        case 'platform:action:navigate':
          return (state.path = p.path as string) != null;
        case 'platform:action:set-filter': {
          // `f_<view>.<dimension>=<JSON>`; a value that is not a JSON object cannot go into a URL: sent, not kept.
          const [, member, value] = /^f_([^=]+)=(.*)$/s.exec(p.filterUrlParameter as string)!;
          try {
            const filter: unknown = JSON.parse(value!);
            if (filter && typeof filter == 'object' && !Array.isArray(filter))
              return !!(state.filters = { ...state.filters, [member!]: filter as FilterValue });
          } catch {}
        }
      }
      return false;
    },
    /** Holds an action that sets no host state until `ready`. */
    push: (message: ActionMessage) => pending.push(message),
    /** The locale and filters the next frame's URL carries (remembered, to send only what differs at `ready`). */
    url: () => (inUrl = { locale: state.locale, filters: state.filters }),
    /** At `ready`: the actions that bring the frame to the host state, then those held, in order. Empties the queue. */
    drain(): ActionMessage[] {
      const out: ActionMessage[] = [];
      if (state.colorScheme) out.push(actionEnvelope('set-color-scheme', { scheme: state.colorScheme }));
      if (state.theme) out.push(actionEnvelope('set-theme', state.theme));
      if (state.locale && state.locale != inUrl.locale) out.push(actionEnvelope('set-locale', { locale: state.locale }));
      for (const member in state.filters)
        if (json(state.filters[member]) != json(inUrl.filters[member]))
          out.push(
            actionEnvelope('set-filter', {
              filterUrlParameter: `f_${member}=${json(state.filters[member])}` as `f_${string}.${string}=${string}`,
            }),
          );
      if (state.path != null) out.push(actionEnvelope('navigate', { path: state.path }));
      inUrl = { locale: state.locale, filters: state.filters };
      return out.concat(pending.splice(0));
    },
    /** Forgets the held actions. */
    clear: () => void (pending = []),
  };
}
