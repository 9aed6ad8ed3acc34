/**
 * What a thrown value says in a log line: an Error's message, else its string form, or its type
 * for a value that has none (a null-prototype object, one whose `toString` throws). A log line
 * must not throw: a route's answer, or a page's render, does not depend on what was thrown.
 */
export function describeThrown(value: unknown): string {
  if (value instanceof Error) return value.message;
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
