import type { SessionClient } from './createSessionClient';
import { describeThrown } from './describeThrown';
import type { GenerateSessionRequest } from './types';

/** Options of {@link mintInitialSession}. */
export interface InitialSessionOptions {
  /**
   * Called with a failure to mint (a {@link PlatformApiError}, the API key redacted from its
   * message); the page renders all the same, also when it throws (the throw is logged with `console.error`).
   * @default logs the error's message with `console.error`
   */
  onError?: (error: unknown) => void;
}

/** How deep the causes of an error are searched for a framework's signal. */
const MAX_CAUSES = 4;

/**
 * A framework's own signal in `error` or its causes, else `undefined`. Frameworks mark the errors
 * they throw to steer a render with a string `digest`: Next.js's `redirect()` and `notFound()`, a
 * dynamic render, and the end of a prerender (`HANGING_PROMISE_REJECTION`: with `cacheComponents`,
 * the prerender Next.js runs for a request ends while the session call is under way, and `fetch`
 * rejects with it). A session client's error carries it in its `cause`.
 */
function frameworkSignal(error: unknown): unknown {
  for (let depth = 0; depth <= MAX_CAUSES && error instanceof Error; depth++, error = error.cause)
    if (typeof (error as { digest?: unknown }).digest === 'string') return error;
  return undefined;
}

/**
 * Mints the first session of a page rendered on the server, for the embed's `initialSession`:
 * the iframe starts at once, with no round trip to your session route. When minting fails (the
 * platform is down, a rate limit), it resolves to `undefined` and reports the failure to
 * `onError`: the page still renders, and the embed's `session` function gets the next chance (its
 * error UI shows if that fails too). A framework's own signal is thrown on as it is, unreported
 * (an error, or one of its causes, with a string `digest`): with Next.js's `cacheComponents`, the prerender that ends while
 * the call is under way stays silent, and `redirect()` from your auth still redirects.
 *
 * Only for pages that are never cached or shared: a session is single-use and belongs to one
 * viewer (Next.js: the component reads the request; `Cache-Control: private, no-store`).
 * @example
 * ```tsx
 * // app/sales/page.tsx (Next.js), a server component inside <Suspense>
 * const user = await currentUser();
 * const initialSession = user ? await mintInitialSession(platform, { deploymentId: 1, externalId: user.id }) : undefined;
 * return <Sales viewer={user?.id} initialSession={initialSession} />;
 * ```
 */
export async function mintInitialSession(
  client: SessionClient,
  request: GenerateSessionRequest,
  options: InitialSessionOptions = {},
): Promise<string | undefined> {
  try {
    return (await client.generateSession(request)).sessionId;
  } catch (error) {
    const signal = frameworkSignal(error);
    if (signal) throw signal;
    // (An onError that throws, a logger not set up yet, must not fail the page's render.)
    try {
      (options.onError ?? ((failure: unknown) => console.error(describeThrown(failure))))(error);
    } catch (thrown) {
      console.error(`[platform-embed/server] onError threw (${describeThrown(thrown)}) on: ${describeThrown(error)}`);
    }
    return undefined;
  }
}
