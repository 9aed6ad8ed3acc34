import { createSessionClient, type SessionClient, type SessionClientOptions } from './createSessionClient';
import { PlatformApiError, PlatformApiErrorCodes } from './platformApiError';
import type { ExternalUserSessionRequest, InternalUserSessionRequest } from './types';

type OptionalDeployment<T> = T extends unknown ? Omit<T, 'deploymentId'> & { deploymentId?: number } : never;

/**
 * The session request fields for the signed-in user, as `resolveUser` returns them.
 * `deploymentId` may be left to {@link SessionHandlerOptions.deploymentId}.
 */
export type SessionUser = OptionalDeployment<ExternalUserSessionRequest> | OptionalDeployment<InternalUserSessionRequest>;

/** Options of {@link createSessionHandler}. */
export interface SessionHandlerOptions {
  /** A client from `createSessionClient`, or the options to create one. */
  client: SessionClient | SessionClientOptions;
  /**
   * Says who is signed in, from your own session cookie or token, as the session request
   * fields for that user; `null` (or `undefined`) when nobody is, which answers 401.
   * Decide attributes, groups and profile here, on the server: never copy them from the request.
   */
  resolveUser: (request: Request) => SessionUser | null | undefined | Promise<SessionUser | null | undefined>;
  /** The deployment, when `resolveUser` does not return one. */
  deploymentId?: number;
  /**
   * HTTP methods the route answers; others get 405.
   * @default ['GET', 'POST']
   */
  methods?: readonly string[];
  /**
   * Called with every failure that became a 5xx answer (the browser only gets a generic
   * message). The error's message never holds the API key.
   * @default logs `error.message` with `console.error`
   */
  onError?: (error: unknown, request: Request) => void;
}

const HEADERS = { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
const json = (status: number, body: object, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { ...HEADERS, ...headers } });

const STATUS_OF: Partial<Record<PlatformApiError['code'], number>> = {
  timeout: 504,
  network: 502,
  'bad-request': 502,
  unauthorized: 502,
  forbidden: 502,
  http: 502,
  'invalid-response': 502,
};

/**
 * A Fetch API route (`Request → Response`) that mints a fresh session for the signed-in user
 * and answers `{ "sessionId": "..." }`, uncacheable. Mount it on your own origin (no CORS) and
 * point the browser SDK's `session` function at it; every iframe load needs a new session.
 *
 * Answers 401 when `resolveUser` returns null, 405 for other methods, 502/504 when the
 * platform fails and 500 for other failures, with a generic message: details go to `onError`.
 *
 * @example
 * ```ts
 * // app/api/embed-session/route.ts (Next.js), or any Fetch API server
 * export const POST = createSessionHandler({
 *   client: { baseUrl: process.env.PLATFORM_URL!, apiKey: process.env.PLATFORM_API_KEY! },
 *   deploymentId: 1,
 *   resolveUser: async (request) => {
 *     const user = await getUser(request);
 *     return user && { externalId: user.id, userAttributes: [{ name: 'region', value: user.region }] };
 *   },
 * });
 * ```
 */
export function createSessionHandler(options: SessionHandlerOptions): (request: Request) => Promise<Response> {
  if (typeof options?.resolveUser !== 'function')
    throw new PlatformApiError(
      PlatformApiErrorCodes.InvalidOption,
      "createSessionHandler needs resolveUser(request), returning the signed-in user's session fields or null",
    );
  const given = options.client as SessionClientOptions | undefined;
  // Options that are present are checked now. A base URL or API key that is still missing (an
  // environment variable not set while a framework evaluates the module at build time, as
  // `next build` does for route handlers) is checked at the first request instead: that request
  // fails with the same invalid-option error, reported to onError.
  const missingSecrets = given !== undefined && (given.baseUrl === undefined || given.apiKey === undefined);
  let client: SessionClient | undefined =
    typeof (options.client as SessionClient | undefined)?.generateSession === 'function'
      ? (options.client as SessionClient)
      : missingSecrets
        ? undefined
        : createSessionClient(given as SessionClientOptions);
  const methods = (options.methods ?? ['GET', 'POST']).map((m) => m.toUpperCase());
  const onError = options.onError ?? ((error: unknown) => console.error(error instanceof Error ? error.message : error));
  const { deploymentId } = options;

  return async (request) => {
    if (!methods.includes(request.method.toUpperCase())) return json(405, { error: 'method not allowed' }, { Allow: methods.join(', ') });
    try {
      const user = await options.resolveUser(request);
      if (!user) return json(401, { error: 'not signed in' });
      client ??= createSessionClient(given as SessionClientOptions);
      const { sessionId } = await client.generateSession({ deploymentId, ...user } as Parameters<SessionClient['generateSession']>[0], {
        signal: request.signal,
      });
      return json(200, { sessionId });
    } catch (error) {
      // The browser went away: nobody will read an answer, and it is not a failure to report.
      if (request.signal?.aborted) return json(499, { error: 'client closed request' });
      onError(error, request);
      const status = (error instanceof PlatformApiError && STATUS_OF[error.code]) || 500;
      return json(status, { error: 'session could not be created' });
    }
  };
}
