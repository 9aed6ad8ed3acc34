/**
 * The transform of the flag inputs (`allowExport`, `showDashboardHeader`, `debug`, ...): a
 * static attribute is read as Angular reads boolean attributes (`allowExport` and
 * `allowExport="true"` are `true`, `"false"` is `false`); a bound value is kept as it is, so an
 * unbound or `undefined` flag stays absent (the platform's default) rather than `false`.
 * @internal
 */
export const flag = <T>(value: T | string): T | boolean => (typeof value == 'string' ? value != 'false' : value);

/**
 * The transform of the inputs that are a flag or a name (`keepAlive`): a static attribute is
 * read as the custom elements read it (`keepAlive` and `keepAlive="true"` are `true`, `"false"`
 * is `false`, any other value is the name); a bound value is kept as it is.
 * @internal
 */
export const flagOrName = <T>(value: T | string): T | string | boolean => value === '' || value === 'true' || (value !== 'false' && value);
