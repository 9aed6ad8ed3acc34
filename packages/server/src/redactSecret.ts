/*
 * Redaction of the API key from text the package did not write: what the platform echoes
 * back, the messages and stacks of the errors `fetch` throws.
 *
 * A key can come back in other forms than the one we sent: URL-encoded (`%2F`), inside
 * base64 or base64url (an `Authorization` header echoed as a Basic credential or a token),
 * hex-encoded (a byte dump, in either letter case), upper- or lower-cased, JSON-escaped, or cut
 * (a long prefix in a truncated log line), and two of these combined (a URL-encoded base64
 * value, the hex of a base64 value, the base64 of the URL-encoded key). So the text is not
 * searched for the key itself but for any piece of it at least `REDACTED_PIECE_LENGTH`
 * characters long, compared without regard to ASCII letter case, after decoding `%XX` and
 * backslash escapes, in the key's own form (also upper- or lower-cased, URL-encoded and
 * JSON-escaped) and in what one or two binary encodings make of it: the hex, and the parts of
 * the base64 and base64url encodings that do not depend on what surrounds the key. Each run of
 * the text that matches becomes `[redacted]`.
 */

/** A run of this many characters of the key (in any of its forms) is redacted wherever it appears. */
export const REDACTED_PIECE_LENGTH = 12;

const REDACTED = '[redacted]';

/** One character of the text as the comparison sees it, and where it came from. */
interface TextUnit {
  /** The character, ASCII letters lowercased. */
  char: string;
  /** Where it starts in the text. */
  start: number;
  /** Where it ends in the text (an escape spans several characters). */
  end: number;
}

// URL escapes and JSON (or JavaScript) escapes, decoded apart and together: a key that itself
// holds `%41` or a backslash is echoed with one kind decoded and the other kept.
const URL_ESCAPE = /%[0-9a-f]{2}/iy;
const JSON_ESCAPE = /\\u[0-9a-f]{4}|\\x[0-9a-f]{2}|\\["\\/]/iy;
const BOTH_ESCAPES = /%[0-9a-f]{2}|\\u[0-9a-f]{4}|\\x[0-9a-f]{2}|\\["\\/]/iy;

function lowerAscii(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** The character an escape sequence (`%2F`, `\u002f`, `\x2f`, `\/`) stands for. */
function unescapeSequence(sequence: string): string {
  if (sequence.startsWith('%')) return String.fromCharCode(parseInt(sequence.slice(1), 16));
  if (sequence.startsWith('\\u') || sequence.startsWith('\\x')) return String.fromCharCode(parseInt(sequence.slice(2), 16));
  return sequence.slice(1);
}

/** The text as a list of characters, ASCII letters lowercased; the sequences `escapes` matches as the character they stand for. */
function toUnits(text: string, escapes?: RegExp): TextUnit[] {
  const units: TextUnit[] = [];
  let position = 0;
  while (position < text.length) {
    let escape: RegExpExecArray | null = null;
    if (escapes) {
      escapes.lastIndex = position;
      escape = escapes.exec(text);
    }
    const source = escape ? escape[0] : text[position]!;
    const char = escape ? unescapeSequence(source) : source;
    units.push({ char: lowerAscii(char), start: position, end: position + source.length });
    position += source.length;
  }
  return units;
}

/** The latin-1 string of a key, base64-encoded as if `offset` unknown bytes came before it. */
function base64Core(secret: string, offset: number): string {
  const encoded = btoa('\0'.repeat(offset) + secret);
  // Base64 character k carries bits [6k, 6k + 6); keep only those made of the key's own bits.
  const firstBit = offset * 8;
  const endBit = (offset + secret.length) * 8;
  const first = Math.ceil(firstBit / 6);
  const last = Math.floor((endBit - 6) / 6);
  return encoded.slice(first, last + 1);
}

/** The hex digits of a latin-1 string, two per byte. */
function hex(text: string): string {
  return Array.from(text, (char) => char.charCodeAt(0).toString(16).padStart(2, '0')).join('');
}

/**
 * The key as it may be written before a binary encoding is applied to it: as it is, in upper
 * and lower case, URL-encoded (`encodeURIComponent`), and JSON-escaped (inside a JSON string).
 */
function writtenForms(secret: string): Set<string> {
  return new Set([secret, secret.toUpperCase(), secret.toLowerCase(), encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
}

/** What a binary encoding makes of a form: its hex, and the stable middles of its base64 and base64url encodings at the three byte alignments. */
function encodedForms(form: string): string[] {
  const forms = [hex(form)];
  for (const offset of [0, 1, 2]) {
    const core = base64Core(form, offset);
    forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/**
 * Every form of the key an echo may hold: each written form, encoded once, and encoded twice
 * (the hex of a base64 value, a base64 value encoded again).
 */
function secretForms(secret: string): string[] {
  const forms = new Set<string>();
  for (const written of writtenForms(secret)) {
    forms.add(written);
    for (const once of encodedForms(written)) {
      forms.add(once);
      for (const twice of encodedForms(once)) forms.add(twice);
    }
  }
  return [...forms].filter((form) => form.length >= REDACTED_PIECE_LENGTH);
}

/** Every piece of `REDACTED_PIECE_LENGTH` characters of the forms, lowercased. */
function secretPieces(secret: string): Set<string> {
  const pieces = new Set<string>();
  for (const form of secretForms(secret).map(lowerAscii))
    for (let start = 0; start + REDACTED_PIECE_LENGTH <= form.length; start++) pieces.add(form.slice(start, start + REDACTED_PIECE_LENGTH));
  return pieces;
}

/** Marks, in `marked` (one flag per character of the text), every run of units matching a piece of the secret. */
function markSecretRuns(units: readonly TextUnit[], pieces: ReadonlySet<string>, marked: boolean[]): void {
  for (let start = 0; start + REDACTED_PIECE_LENGTH <= units.length; start++) {
    let window = '';
    for (let index = start; index < start + REDACTED_PIECE_LENGTH; index++) window += units[index]!.char;
    if (pieces.has(window)) marked.fill(true, units[start]!.start, units[start + REDACTED_PIECE_LENGTH - 1]!.end);
  }
}

/**
 * A function that returns its text with every echo of `secret` replaced by `[redacted]`: the
 * secret raw, in any ASCII letter case, URL-encoded or JSON-escaped, hex (either case), base64
 * or base64url encoded (alone or inside a longer encoded value), two of these combined, or any
 * piece of at least {@link REDACTED_PIECE_LENGTH} characters of these. `secret` must be printable
 * ASCII (an API key). The text is returned as it is (the same string) when it holds no echo.
 */
export function createRedactor(secret: string): (text: string) => string {
  const pieces = secretPieces(secret);
  return (text) => {
    if (text.length < REDACTED_PIECE_LENGTH) return text;
    const marked = new Array<boolean>(text.length).fill(false);
    // As written (a key that itself holds `%41` is echoed as it is), and with each kind of
    // escape sequence decoded, apart and together (a key echoed URL-encoded or JSON-escaped).
    for (const escapes of [undefined, URL_ESCAPE, JSON_ESCAPE, BOTH_ESCAPES]) markSecretRuns(toUnits(text, escapes), pieces, marked);
    if (!marked.includes(true)) return text;
    let result = '';
    for (let index = 0; index < text.length; index++) {
      if (!marked[index]) result += text[index];
      else if (!marked[index - 1]) result += REDACTED;
    }
    return result;
  };
}
