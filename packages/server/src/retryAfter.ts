/*
 * The `Retry-After` header (RFC 9110, section 10.2.3): a number of seconds, or an HTTP date.
 * Parsed by hand rather than with `Date.parse`, whose reading of the two obsolete date formats
 * differs between JavaScript engines (V8, JavaScriptCore), and so between the runtimes this
 * package runs on.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

// Sun, 06 Nov 1994 08:49:37 GMT (IMF-fixdate, the one senders must use)
const IMF_FIXDATE = /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
// Sunday, 06-Nov-94 08:49:37 GMT (obsolete RFC 850 format)
const RFC_850_DATE = /^[a-z]{6,9}, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) GMT$/i;
// Sun Nov  6 08:49:37 1994 (obsolete asctime format)
const ASCTIME_DATE = /^[a-z]{3} ([a-z]{3}) ([ \d]\d) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

interface DateParts {
  year: number;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

function toEpochMs({ year, month, day, hour, minute, second }: DateParts): number | undefined {
  const monthIndex = MONTHS.indexOf(month.toLowerCase());
  if (monthIndex < 0) return undefined;
  const time = Date.UTC(year, monthIndex, Number(day), Number(hour), Number(minute), Number(second));
  return Number.isNaN(time) ? undefined : time;
}

/** A two-digit RFC 850 year: one that would be more than 50 years in the future is in the past century (RFC 9110). */
function fullYear(twoDigits: string, nowMs: number): number {
  const currentYear = new Date(nowMs).getUTCFullYear();
  const year = Math.floor(currentYear / 100) * 100 + Number(twoDigits);
  return year > currentYear + 50 ? year - 100 : year;
}

/** An HTTP date in any of its three formats, as epoch milliseconds; `undefined` if it is none of them. */
export function parseHttpDate(value: string, nowMs: number = Date.now()): number | undefined {
  const text = value.trim();
  const imf = IMF_FIXDATE.exec(text);
  if (imf) return toEpochMs({ day: imf[1]!, month: imf[2]!, year: Number(imf[3]), hour: imf[4]!, minute: imf[5]!, second: imf[6]! });
  const rfc850 = RFC_850_DATE.exec(text);
  if (rfc850)
    return toEpochMs({
      day: rfc850[1]!,
      month: rfc850[2]!,
      year: fullYear(rfc850[3]!, nowMs),
      hour: rfc850[4]!,
      minute: rfc850[5]!,
      second: rfc850[6]!,
    });
  const asctime = ASCTIME_DATE.exec(text);
  if (asctime)
    return toEpochMs({
      month: asctime[1]!,
      day: asctime[2]!.trim(),
      hour: asctime[3]!,
      minute: asctime[4]!,
      second: asctime[5]!,
      year: Number(asctime[6]),
    });
  return undefined;
}

/**
 * The wait a `Retry-After` header asks for, in whole seconds (a date in the past is 0);
 * `undefined` when there is no header or it is neither a number of seconds nor an HTTP date.
 * A date is measured from `nowMs`: pass the time of the answer's own `Date` header when it
 * has one, so that a skewed clock on either side does not change the wait.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = parseHttpDate(text, nowMs);
  if (date === undefined) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}
