import { ACTION_SCHEMAS } from './catalog';
import { camelCase } from './protocol';
import type { FilterValue } from './launchOptions';
import { filterUrlParameter } from './url';

/*
 * The action helpers (`setColorScheme(scheme)`, `setTheme(theme)`, `setLocale(locale)`,
 * `setFilter(...)`, `navigate(path)`, `refresh()`), derived from the action catalog for the
 * handle and the custom elements: each is its action's name in camelCase. A payload of one field
 * takes that field's value as the argument, an open payload (`set-theme`) is the argument
 * itself, an empty one takes none. The one helper with more arguments, `setFilter(view,
 * dimension, value)`, builds its parameter with `filterUrlParameter`.
 */

/**
 * The action helpers, calling `send(actionName, payload)` with the helper's `this` (so they
 * can be methods of a prototype, as on the custom elements).
 */
export const actionHelpers = (send: (this: unknown, name: string, payload?: unknown) => void): Record<string, Function> =>
  Object.fromEntries(
    Object.entries(ACTION_SCHEMAS).map(([name, schema]) => {
      const [field] = Object.keys(schema);
      return [
        camelCase(name),
        function (this: unknown, ...args: unknown[]) {
          send.call(
            this,
            name,
            '*' in schema || !field
              ? args[0]
              : { [field]: args.length > 1 ? filterUrlParameter(...(args as [string, string, FilterValue])) : args[0] },
          );
        },
      ];
    }),
  );
