import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  MAX_RETRY_AFTER,
  MAX_SESSION_BODY,
  MAX_SESSION_ID,
  embedDashboard,
  listenerCount,
  type Diagnostic,
  type EmbedHandle,
  type SessionSource,
} from '../src/index';
import { BASE, READY, deliver, envelope, flush, freshId } from './helpers';

/*
 * What a `session` function may return and how each answer is read: the id, generate-session's
 * `{ sessionId }` body, or the `Response` of its fetch (a 2xx with `{ sessionId }`; a 5xx, 429 or
 * 408 renewable, after its Retry-After; another 4xx not renewable), read within bounds and
 * cancelled when the load is abandoned. After a route answered "wait", every session call of the
 * page waits and they go one at a time. And the page-wide record is one per page, whatever the
 * copies of the SDK on it, and whatever another script left in it.
 */

let handles: EmbedHandle[] = [];
const mount = (session: SessionSource, options: Record<string, unknown> = {}) => {
  const diagnostics: Diagnostic[] = [];
  const h = embedDashboard({
    container: '#c',
    baseUrl: BASE,
    publicId: 'sales',
    session,
    onDiagnostic: (d) => diagnostics.push(d),
    ...options,
  });
  handles.push(h);
  return Object.assign(h, { diagnostics });
};
const json = (body: unknown, init: ResponseInit & { url?: string } = {}) => {
  const response = new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' }, ...init });
  if (init.url) Object.defineProperty(response, 'url', { value: init.url });
  return response;
};
const retries = (diagnostics: Diagnostic[]) =>
  diagnostics.flatMap((d) => (d.kind == 'retry' ? [[d.attempt, d.delay, d.error.message]] : []));
// Lets the session call, its response body and the mount run (fetch bodies resolve in macrotasks).
const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await flush();
    await new Promise((r) => setTimeout(r, 0));
  }
};

beforeEach(() => {
  document.body.innerHTML = '<div id="c"></div><div id="d"></div><div id="e"></div>';
});
// The page's record (version 2): its wait outlives a test's embeds, and its clock may be a fake one.
const page = () => (globalThis as Record<symbol, { until: number; line: unknown; used: Map<string, number> }>)[RECORD]!;
const RECORD = Symbol.for('platform-embed.sessions@2');
afterEach(() => {
  for (const h of handles) h.destroy();
  handles = [];
  if (page()) Object.assign(page(), { until: 0, line: 0 });
  vi.useRealTimers();
  vi.restoreAllMocks();
  globalThis.__DEV__ = true;
  expect(listenerCount()).toBe(0);
});

describe('the session function may return the Response of its fetch', () => {
  test('a 2xx with { sessionId } is the session', async () => {
    const id = freshId();
    const h = mount(() => json({ sessionId: id }));
    await settle();
    expect(new URL(h.iframe!.src).searchParams.get('session')).toBe(id);
  });

  test('a 5xx is renewable, named by its status: retried with a fresh call', async () => {
    const id = freshId();
    const session = vi.fn().mockResolvedValueOnce(json({ error: 'upstream' }, { status: 502, url: 'https://host.example/api/s' }));
    session.mockResolvedValueOnce(json({ sessionId: id }));
    vi.spyOn(Math, 'random').mockReturnValue(0); // the shortest backoff: 250 ms
    const h = mount(session);
    await settle();
    expect(retries(h.diagnostics)).toEqual([
      [1, 250, expect.stringContaining('the session route https://host.example/api/s answered HTTP 502: it could not mint a session')],
    ]);
    await vi.waitFor(() => expect(h.iframe).not.toBeNull(), { timeout: 2000 });
    expect(session).toHaveBeenCalledTimes(2);
    expect(new URL(h.iframe!.src).searchParams.get('session')).toBe(id);
  });

  test('another 4xx is not renewable: the error state at once, saying why it is not tried again', async () => {
    const session = vi.fn(() => json({ error: 'forbidden', message: 'This viewer may not see sales.' }, { status: 403 }));
    const h = mount(session);
    await settle();
    expect(h.getState().status).toBe('error');
    expect(h.error).toMatchObject({ code: 'session' });
    expect(h.error!.message).toMatch(/answered HTTP 403: it refused \(not tried again.*signed in/);
    // The route's own words, as createSessionHandler answers them.
    expect(h.error!.message).toMatch(/\(This viewer may not see sales\.\)$/);
    expect(session).toHaveBeenCalledTimes(1);
    expect(retries(h.diagnostics)).toEqual([]);
  });

  test('production: the code and the status', async () => {
    globalThis.__DEV__ = false;
    const h = mount(() => json({}, { status: 401 }));
    await settle();
    expect(h.error!.message).toBe('[platform-embed] session HTTP 401');
    const said = mount(() => json({ error: 'unauthenticated' }, { status: 401 }), { container: '#d' });
    await settle();
    expect(said.error!.message).toBe('[platform-embed] session HTTP 401 (unauthenticated)');
  });

  test('a 2xx that is not JSON says what to answer', async () => {
    const h = mount(() => new Response('<html>', { status: 200 }));
    await settle();
    expect(h.error!.message).toMatch(/answered HTTP 200 without JSON: answer \{ "sessionId": "\.\.\." \}/);
  });

  test.each<[string, unknown, RegExp]>([
    ['an object without sessionId names the shape', { id: 'x' }, /returned an object without "sessionId" \(keys: id\).*\{ sessionId \}/],
    ['an empty string', '', /returned an empty string/],
    ['undefined', undefined, /returned undefined/],
  ])('%s (not renewable)', async (_, result, message) => {
    const session = vi.fn(() => result as string);
    const h = mount(session);
    await settle();
    expect(h.error).toMatchObject({ code: 'session' });
    expect(h.error!.message).toMatch(message);
    expect(session).toHaveBeenCalledTimes(1);
  });

  test('a rejection with no string form (a null-prototype object) fails the call and is retried, never hangs it', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const id = freshId();
    // sessionTimeout 0: no timer would ever end a call that hangs.
    const session = vi
      .fn()
      .mockRejectedValueOnce(Object.create(null))
      .mockResolvedValueOnce(json({ sessionId: id }));
    const h = mount(session, { sessionTimeout: 0 });
    await settle();
    expect(retries(h.diagnostics)).toEqual([[1, 250, expect.stringContaining('session function failed: object')]]);
    await vi.waitFor(() => expect(h.iframe).not.toBeNull(), { timeout: 2000 });
  });

  test('a network failure (fetch rejects) is renewable', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const id = freshId();
    const session = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(json({ sessionId: id }));
    const h = mount(session);
    await settle();
    expect(retries(h.diagnostics)).toEqual([[1, 250, expect.stringContaining('session function failed: TypeError: Failed to fetch')]]);
    await vi.waitFor(() => expect(h.iframe).not.toBeNull(), { timeout: 2000 });
  });
});

describe('rate limits: Retry-After is obeyed, and one retry at a time leaves a page', () => {
  test('429 with Retry-After: the retry waits as long as asked', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const session = vi.fn(() => json({ error: 'rate_limited' }, { status: 429, headers: { 'retry-after': '7' }, url: '/api/a' }));
    const h = mount(session, { retry: 1 });
    await vi.advanceTimersByTimeAsync(10);
    expect(retries(h.diagnostics)).toEqual([[1, 7000, expect.stringContaining('HTTP 429: rate limited, tried again when it said')]]);
    await vi.advanceTimersByTimeAsync(6980);
    expect(session).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(session).toHaveBeenCalledTimes(2);
  });

  test('Retry-After as an HTTP date, and bounded by MAX_RETRY_AFTER', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const date = new Date(Date.now() + 20_000).toUTCString();
    const a = mount(() => json({}, { status: 503, headers: { 'retry-after': date }, url: '/api/b' }), { retry: 1 });
    const b = mount(() => json({}, { status: 429, headers: { 'retry-after': '86400' }, url: '/api/c' }), { retry: 1, container: '#d' });
    await vi.advanceTimersByTimeAsync(10);
    const [[, dateDelay]] = retries(a.diagnostics) as [[number, number]];
    expect(dateDelay).toBeGreaterThan(18_000);
    expect(dateDelay).toBeLessThanOrEqual(20_000);
    expect(retries(b.diagnostics)).toEqual([[1, MAX_RETRY_AFTER, expect.anything()]]);
  });

  test('20 embeds on one rate-limited route: after the first answers, one call at a time, none before Retry-After', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    document.body.innerHTML = Array.from({ length: 20 }, (_, i) => `<div id="b${i}"></div>`).join('');
    // The platform is limited for 10 s: every call before then is answered 429, Retry-After: 5.
    const start = Date.now();
    let inFlight = 0;
    let most = 0;
    const calls: number[] = [];
    const session = async () => {
      calls.push(Date.now() - start);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 50));
      inFlight--;
      return Date.now() - start < 10_000
        ? json({ error: 'rate_limited' }, { status: 429, headers: { 'retry-after': '5' }, url: '/api/limited' })
        : json({ sessionId: freshId() }, { url: '/api/limited' });
    };
    const embeds = Array.from({ length: 20 }, (_, i) => mount(session, { container: `#b${i}` }));
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toHaveLength(20); // the first wave: every embed asked before any answer came
    const firstWave = calls.length;
    await vi.advanceTimersByTimeAsync(30_000);
    const later = calls.slice(firstWave);
    // No call while the route said wait (before 5 s), and never two at once after the first wave.
    expect(Math.min(...later)).toBeGreaterThanOrEqual(5000);
    for (let i = 1; i < later.length; i++) expect(later[i]! - later[i - 1]!).toBeGreaterThanOrEqual(50);
    // The retries during the limited episode (5 s to 10 s): one probe per Retry-After, not one per embed.
    expect(later.filter((t) => t < 10_000).length).toBeLessThanOrEqual(2);
    // After the episode every embed got its session.
    expect(embeds.every((h) => h.iframe)).toBe(true);
    expect(most).toBe(20);
  });
});

describe('one single-use record per page, shared by every copy of the SDK', () => {
  test('an id used by one copy is refused by another, before any frame loads it', async () => {
    vi.resetModules();
    const first = await import('../src/index');
    vi.resetModules();
    const second = await import('../src/index');
    expect(second.embedDashboard).not.toBe(first.embedDashboard);
    const id = freshId();
    const a = first.embedDashboard({ container: '#c', baseUrl: BASE, publicId: 'p', session: id });
    const b = second.embedDashboard({ container: '#d', baseUrl: BASE, publicId: 'p', session: id, retry: false });
    handles.push(a, b);
    await settle();
    expect(a.iframe).not.toBeNull();
    expect(b.iframe).toBeNull();
    expect(b.error).toMatchObject({ code: 'session', message: expect.stringContaining('session already used') });
    const record = (globalThis as Record<symbol, { version: number; used: Map<string, number> }>)[Symbol.for('platform-embed.sessions')]!;
    expect(record.version).toBe(1);
    expect(record.used.has(id)).toBe(true);
    for (const h of [a, b]) h.destroy();
    expect(first.listenerCount() + second.listenerCount()).toBe(0);
  });

  test('ids recorded by an older copy in the shared record are refused too', async () => {
    const id = freshId();
    const record = (globalThis as Record<symbol, { used: Map<string, number> }>)[Symbol.for('platform-embed.sessions')];
    // Another copy (already loaded, or of another version) wrote the record.
    if (record) record.used.set(id, performance.now());
    else
      (globalThis as Record<symbol, unknown>)[Symbol.for('platform-embed.sessions')] = {
        version: 1,
        used: new Map([[id, performance.now()]]),
      };
    const h = mount(id, { retry: false });
    await settle();
    expect(h.error?.message).toContain('session already used');
  });
});

describe('a ready that comes while a rate-limited retry waits still wins', () => {
  test('the late frame becomes ready, the waiting retry is cancelled', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const session = vi.fn(async () => freshId());
    const h = mount(session, { readyTimeout: 100 });
    await vi.advanceTimersByTimeAsync(150);
    expect(h.getState().status).toBe('loading');
    const iframe = h.iframe!;
    deliver(envelope('ready', READY), iframe.contentWindow);
    expect(h.getState().status).toBe('ready');
    await vi.advanceTimersByTimeAsync(5000);
    expect(session).toHaveBeenCalledTimes(1);
  });
});

describe('Retry-After is read as RFC 9110 says: delta-seconds (digits) or an HTTP date, anything else ignored', () => {
  // (Math.random 1: the backoff of a first retry is 500 ms; a wait the header asked for is longer.)
  const inSeconds = (s: number) => new Date(Date.now() + s * 1000);
  const rfc850 = (d: Date) => {
    const [day, date, month, year, time] = d.toUTCString().split(' ');
    const days: Record<string, string> = {
      Mon: 'Monday',
      Tue: 'Tuesday',
      Wed: 'Wednesday',
      Thu: 'Thursday',
      Fri: 'Friday',
      Sat: 'Saturday',
      Sun: 'Sunday',
    };
    return `${days[day!.slice(0, 3)]}, ${date}-${month}-${year!.slice(2)} ${time} GMT`;
  };
  const asctime = (d: Date) => {
    const [day, date, month, year, time] = d.toUTCString().split(' ');
    return `${day!.slice(0, 3)} ${month} ${date!.replace(/^0/, ' ')} ${time} ${year}`;
  };
  test.each<[string, () => string, number | [number, number]]>([
    ['seconds', () => '7', 7000],
    ['zero', () => '0', 500],
    ['more seconds than MAX_RETRY_AFTER', () => '99999999999999999999', MAX_RETRY_AFTER],
    ['an IMF-fixdate', () => inSeconds(20).toUTCString(), [18_000, 20_000]],
    ['an RFC 850 date', () => rfc850(inSeconds(20)), [18_000, 20_000]],
    ['an asctime date (GMT)', () => asctime(inSeconds(20)), [18_000, 20_000]],
    ['a date in the past', () => 'Sun, 06 Nov 1994 08:49:37 GMT', 500],
    ['hexadecimal', () => '0x0A', 500],
    ['an exponent', () => '1e1', 500],
    ['a fraction', () => '2.5', 500],
    ['a negative number', () => '-1', 500],
    ['a word', () => 'soon', 500],
    ['an ISO date (not an HTTP date)', () => inSeconds(20).toISOString(), 500],
    ['a number and a unit', () => '10s', 500],
  ])('%s', async (_, header, delay) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    const value = header();
    const h = mount(() => json({}, { status: 503, headers: { 'retry-after': value } }), { retry: 1 });
    await vi.advanceTimersByTimeAsync(10);
    const [[, waited]] = retries(h.diagnostics) as [[number, number]];
    if (typeof delay == 'number') expect(waited).toBe(delay);
    else {
      expect(waited).toBeGreaterThan(delay[0]);
      expect(waited).toBeLessThanOrEqual(delay[1]);
    }
  });
});

describe('one wait per page: while a Retry-After wait runs, every embed of every copy waits for it', () => {
  test('embeds created during the wait, by this copy or another, call nobody before it ends; the first embed waits what was said', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    vi.resetModules();
    const other = await import('../src/index');
    document.body.innerHTML = Array.from({ length: 5 }, (_, i) => `<div id="b${i}"></div>`).join('');
    // The platform says "wait 5 s" to every call in its first 5 s (each answer takes 50 ms).
    const start = Date.now();
    const calls: number[] = [];
    const session = async () => {
      calls.push(Date.now() - start);
      await new Promise((r) => setTimeout(r, 50));
      return Date.now() - start < 5000
        ? json({ error: 'rate_limited' }, { status: 429, headers: { 'retry-after': '5' } })
        : json({ sessionId: freshId() });
    };
    const first = mount(session, { container: '#b0' });
    // Four embeds created during the wait, at 1 s to 4 s, two of each copy.
    for (let i = 1; i <= 4; i++) {
      await vi.advanceTimersByTimeAsync(1000);
      const options = { container: `#b${i}`, baseUrl: BASE, publicId: 'sales', session };
      handles.push(i % 2 ? other.embedDashboard(options) : embedDashboard(options));
    }
    expect(calls).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1400);
    // At 5,050 ms (the first answer's Retry-After, not a wait moved by latecomers) the waiting
    // embeds and the first one's retry go, one at a time.
    expect(calls[1]).toBe(5050);
    for (let i = 2; i < calls.length; i++) expect(calls[i]! - calls[i - 1]!).toBeGreaterThanOrEqual(50);
    expect(calls).toHaveLength(6);
    expect(first.iframe).not.toBeNull();
    expect(handles.every((h) => h.iframe)).toBe(true);
  });

  test('a later answer moves the end to what it says: never earlier, never added up', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(1);
    document.body.innerHTML = Array.from({ length: 4 }, (_, i) => `<div id="b${i}"></div>`).join('');
    const start = Date.now();
    const calls: number[] = [];
    // Three calls in flight at once, answered at 50 ms (wait 5 s: until 5,050), 1,000 ms (wait 2 s:
    // until 3,000, earlier) and 1,200 ms (wait 5 s: until 6,200, the latest word).
    const limited = (after: number, wait: string) => {
      let n = 0;
      return async () => {
        calls.push(Date.now() - start);
        await new Promise((r) => setTimeout(r, n++ ? 50 : after));
        return Date.now() - start < 6000 ? json({}, { status: 503, headers: { 'retry-after': wait } }) : json({ sessionId: freshId() });
      };
    };
    mount(limited(50, '5'), { container: '#b0' });
    mount(limited(1000, '2'), { container: '#b1' });
    mount(limited(1200, '5'), { container: '#b2' });
    await vi.advanceTimersByTimeAsync(3500);
    const late = mount(limited(50, '5'), { container: '#b3' });
    await vi.advanceTimersByTimeAsync(4000);
    expect(calls.slice(0, 3)).toEqual([0, 0, 0]);
    const after = calls.slice(3);
    expect(Math.min(...after)).toBeGreaterThanOrEqual(6200);
    expect(Math.min(...after)).toBeLessThan(6300);
    expect(late.iframe).not.toBeNull();
  });
});

describe('the SDK owns the session download it started', () => {
  // A body that never ends, 100 bytes every 10 ms (a route that hangs mid-answer, well within
  // MAX_SESSION_BODY for the test's time), which counts its reads and whether it was cancelled.
  const endless = (chunk = 100) => {
    const body = { pulls: 0, cancelled: false };
    const stream = new ReadableStream<Uint8Array>({
      pull: async (c) => {
        body.pulls++;
        await new Promise((r) => setTimeout(r, 10));
        c.enqueue(new Uint8Array(chunk).fill(32));
      },
      cancel: () => void (body.cancelled = true),
    });
    return Object.assign(body, { response: () => new Response(stream, { status: 200 }) });
  };
  // Its reads stop once cancelled.
  const stopped = async (body: { pulls: number }) => {
    const pulls = body.pulls;
    await new Promise((r) => setTimeout(r, 100));
    expect(body.pulls).toBeLessThanOrEqual(pulls + 1);
  };

  test('at sessionTimeout: the signal it passed aborts, and the Response it was given (signal unused) is cancelled', async () => {
    const body = endless();
    let signal: AbortSignal | undefined;
    const h = mount((context) => ((signal = context.signal), body.response()), { sessionTimeout: 100, retry: false });
    await vi.waitFor(() => expect(h.getState().status).toBe('error'));
    expect(h.error).toMatchObject({ code: 'session', message: expect.stringContaining('did not answer within 100 ms') });
    expect(signal!.aborted).toBe(true);
    await vi.waitFor(() => expect(body.cancelled).toBe(true));
    await stopped(body);
  });

  test('destroy and a newer attempt (reload) cancel the download they abandon', async () => {
    const destroyed = endless();
    const reloaded = endless();
    const signals: AbortSignal[] = [];
    const a = mount(({ signal }) => (signals.push(signal), destroyed.response()));
    let n = 0;
    const b = mount(({ signal }) => (signals.push(signal), n++ ? freshId() : reloaded.response()), { container: '#d' });
    await vi.waitFor(() => expect(destroyed.pulls + reloaded.pulls).toBeGreaterThan(4));
    a.destroy();
    b.reload();
    await vi.waitFor(() => expect([destroyed.cancelled, reloaded.cancelled]).toEqual([true, true]));
    expect(signals.slice(0, 2).map((s) => s.aborted)).toEqual([true, true]);
    await vi.waitFor(() => expect(b.iframe).not.toBeNull());
    await stopped(destroyed);
    await stopped(reloaded);
  });

  test('a Response that comes after its load was abandoned is cancelled at once', async () => {
    const body = endless();
    const h = mount(() => new Promise<Response>((r) => setTimeout(() => r(body.response()), 200)), { sessionTimeout: 50, retry: false });
    await vi.waitFor(() => expect(h.getState().status).toBe('error'));
    await vi.waitFor(() => expect(body.cancelled).toBe(true));
    expect(body.pulls).toBeLessThanOrEqual(2);
  });

  test.each<[string, () => ReadableStream]>([
    ['one chunk past MAX_SESSION_BODY', () => new ReadableStream({ start: (c) => c.enqueue(new Uint8Array(MAX_SESSION_BODY + 1)) })],
    ['an endless body, big chunks at once', () => new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(65536)) })],
    ['an endless body, a byte at a time', () => new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array([32])) })],
    ['chunks that are not bytes', () => new ReadableStream({ start: (c) => c.enqueue('{"sessionId":"x"}') })],
  ])('%s: refused at once as a session error, not tried again, and cancelled', async (_, stream) => {
    let cancelled = false;
    const session = vi.fn(() => {
      const source = stream();
      const reader = source.getReader();
      // (Wrapped to see the SDK's cancel.)
      const body = new ReadableStream({
        pull: async (c) => {
          const { done, value } = await reader.read();
          if (done) c.close();
          else c.enqueue(value);
        },
        cancel: () => ((cancelled = true), reader.cancel()),
      });
      return new Response(body, { status: 200 });
    });
    const t0 = performance.now();
    const h = mount(session);
    await vi.waitFor(() => expect(h.getState().status).toBe('error'));
    expect(performance.now() - t0).toBeLessThan(500);
    expect(h.error).toMatchObject({ code: 'session' });
    expect(session).toHaveBeenCalledTimes(1);
    expect(cancelled).toBe(true);
  });

  test('a body of MAX_SESSION_BODY bytes is read whole', async () => {
    const id = freshId();
    const text = JSON.stringify({ sessionId: id });
    const h = mount(() => new Response(text + ' '.repeat(MAX_SESSION_BODY - text.length)));
    await settle();
    expect(new URL(h.iframe!.src).searchParams.get('session')).toBe(id);
  });

  test('the body of a refusal is bounded too: its words are dropped, the refusal stands', async () => {
    const h = mount(() => new Response(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(65536)) }), { status: 403 }), {
      retry: false,
    });
    await vi.waitFor(() => expect(h.getState().status).toBe('error'));
    expect(h.error!.message).toMatch(/answered HTTP 403: it refused/);
  });
});

describe('a session id longer than MAX_SESSION_ID is refused at once, as a session error', () => {
  const long = () => 'x'.repeat(MAX_SESSION_ID) + freshId();
  test.each<[string, (id: string) => Record<string, unknown>]>([
    ['returned by the session function', (id) => ({ session: vi.fn(async () => id) })],
    ['in a { sessionId } body', (id) => ({ session: vi.fn(() => json({ sessionId: id })) })],
    ['as the session option', (id) => ({ session: id })],
    ['as initialSession', (id) => ({ initialSession: id, session: vi.fn(async () => freshId()) })],
  ])('%s', async (_, options) => {
    const id = long();
    const { session, ...rest } = options(id);
    const h = mount(session as SessionSource, rest);
    await settle();
    expect(h.iframe).toBeNull();
    expect(h.getState().status).toBe('error');
    expect(h.error).toMatchObject({ code: 'session' });
    expect(h.error!.message).toMatch(
      new RegExp(`the session id has ${id.length} characters, more than a session id has \\(${MAX_SESSION_ID}\\)`),
    );
    expect(h.error!.message).not.toContain(id);
    if (typeof session == 'function') expect(session).toHaveBeenCalledTimes(rest.initialSession ? 0 : 1);
  });

  test('an id of MAX_SESSION_ID characters is used; production says it in three words', async () => {
    const id = freshId();
    const h = mount(id + 'x'.repeat(MAX_SESSION_ID - id.length));
    await settle();
    expect(h.iframe).not.toBeNull();
    globalThis.__DEV__ = false;
    const refused = mount(long(), { container: '#d' });
    await settle();
    expect(refused.error!.message).toBe('[platform-embed] session id too long');
  });
});

describe('the page-wide record never breaks mounting, whatever another script left in it', () => {
  const V1 = Symbol.for('platform-embed.sessions');
  const V2 = Symbol.for('platform-embed.sessions@2');
  const global = globalThis as unknown as Record<symbol, unknown>;
  let saved: (PropertyDescriptor | undefined)[] = [];
  beforeEach(() => {
    saved = [V1, V2].map((key) => Object.getOwnPropertyDescriptor(globalThis, key));
    delete global[V1];
    delete global[V2];
  });
  afterEach(() => {
    [V1, V2].forEach((key, i) => {
      delete global[key];
      if (saved[i]) Object.defineProperty(globalThis, key, saved[i]);
    });
  });
  const trap = () => {
    throw new Error('trap');
  };

  test.each<[string, () => unknown]>([
    ['{}', () => ({})],
    ['an array', () => []],
    ['a string', () => 'ids'],
    ['0', () => 0],
    ['a frozen object', () => Object.freeze({})],
    ['a frozen record', () => Object.freeze({ version: 2, used: new Map(), until: 0, line: 0 })],
    ['a Proxy that throws', () => new Proxy({}, { get: trap, set: trap, has: trap, getPrototypeOf: trap })],
    ['a record whose Map is a Proxy', () => ({ version: 2, used: new Proxy(new Map(), {}), until: 0, line: 0 })],
    ['a future version', () => ({ version: 3, used: new Set(), waits: [] })],
    ['version 1 under the version-2 name', () => ({ version: 1, used: new Map() })],
  ])('%s, under either name, read by a fresh copy: it mounts; a version-2 name it cannot use is reported', async (_, value) => {
    for (const key of [V1, V2]) {
      delete global[V1];
      delete global[V2];
      // Not writable either: the copy cannot replace it.
      Object.defineProperty(globalThis, key, { value: value(), writable: false, configurable: true });
      vi.resetModules();
      const copy = await import('../src/index');
      const diagnostics: Diagnostic[] = [];
      const options = { container: '#c', baseUrl: BASE, publicId: 'p', onDiagnostic: (d: Diagnostic) => diagnostics.push(d) };
      const id = freshId();
      const h = copy.embedDashboard({ ...options, session: async () => id });
      handles.push(h);
      await settle();
      expect(h.getState().status, String(key.description)).toBe('loading');
      expect(h.iframe).not.toBeNull();
      expect(diagnostics).toEqual(key == V2 ? [{ kind: 'page-record' }] : []);
      // The copy's record still refuses a used id.
      const again = copy.embedDashboard({ ...options, container: '#d', session: id, retry: false });
      handles.push(again);
      await settle();
      expect(again.error).toMatchObject({ code: 'session', message: expect.stringContaining('session already used') });
      // Messages still go through redaction without a throw.
      deliver({ source: 'platform-embed', direction: 'event', type: `platform:event:ready`, payload: 1 }, h.iframe!.contentWindow);
      for (const each of [h, again]) each.destroy();
    }
  });

  test('an older copy’s record (version 1) is shared both ways, whoever came first', async () => {
    // An older copy came first.
    const old = new Map([['from-old', performance.now()]]);
    global[V1] = { version: 1, used: old };
    const h = mount('from-old', { retry: false });
    const id = freshId();
    const fresh = mount(id, { container: '#d' });
    await settle();
    expect(h.error?.message).toContain('session already used');
    expect(fresh.iframe).not.toBeNull();
    expect(old.has(id)).toBe(true);
    // A newer copy came first: an older copy loaded later finds version 1, with the same ids.
    delete global[V1];
    delete global[V2];
    vi.resetModules();
    const copy = await import('../src/index');
    const second = freshId();
    handles.push(copy.embedDashboard({ container: '#e', baseUrl: BASE, publicId: 'p', session: second }));
    await settle();
    const record = global[V1] as { version: number; used: Map<string, number> };
    expect(record.version).toBe(1);
    expect(record.used.has(second)).toBe(true);
    expect((global[V2] as { used: unknown }).used).toBe(record.used);
  });
});
