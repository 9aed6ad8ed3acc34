import { concatBytes } from './bodyLimits';

/**
 * What {@link readLimitedText} read: the text of at most `maxBytes` bytes, and whether that
 * was the whole body.
 */
export interface LimitedText {
  text: string;
  /** `false` when the body was larger than the limit: `text` is then its beginning only. */
  complete: boolean;
}

/**
 * Reads a body as UTF-8 text, stopping after `maxBytes` bytes: a larger body is never held
 * in memory whole, whatever its size. A `Content-Length` over the limit is believed without
 * reading anything; the stream is cancelled as soon as the limit is passed.
 */
export async function readLimitedText(
  body: ReadableStream<Uint8Array> | null,
  contentLength: string | null,
  maxBytes: number,
): Promise<LimitedText> {
  if (body === null) return { text: '', complete: true };
  const declared = contentLength === null ? Number.NaN : Number(contentLength);
  if (declared > maxBytes) {
    await body.cancel().catch(() => {});
    return { text: '', complete: false };
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let complete = true;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - size;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      size += room;
      complete = false;
      await reader.cancel().catch(() => {});
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { text: new TextDecoder().decode(concatBytes(chunks, size)), complete };
}
