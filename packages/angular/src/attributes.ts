import { booleanAttribute } from '@angular/core';

/**
 * The transform of the flag inputs (`allowExport`, `showDashboardHeader`, `debug`, ...): a
 * static attribute is read as Angular reads boolean attributes (`allowExport` and
 * `allowExport="true"` are `true`, `"false"` is `false`); a bound value is kept as it is, so an
 * unbound or `undefined` flag stays absent (the platform's default) rather than `false`.
 * @internal
 */
export const flag = <T>(value: T | string): T | boolean => (typeof value == 'string' ? booleanAttribute(value) : value);
