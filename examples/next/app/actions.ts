'use server';
// The Server Action the browser calls for every later load (reload(), a retry after a failure,
// a change of what is embedded): Next.js turns it into a POST to this page, so the API key stays
// on the server as with a route handler.
import { mintSessionFor, readPlatformConfig } from './platform';

/** A fresh session, or (demo only) why none could be minted, so the page can show the cause. */
export type SessionAnswer = { sessionId: string } | { error: string; cause: string };

export async function mintSession(): Promise<SessionAnswer> {
  try {
    return await mintSessionFor(readPlatformConfig());
  } catch (error) {
    // The client's errors never contain the API key. Thrown errors reach the browser of a
    // production build as a generic message, so the demo answers the cause itself; a production
    // action would log it and answer (or throw) only a generic message.
    const cause = error instanceof Error ? error.message : String(error);
    console.error(`Next.js host, session action: ${cause}`);
    return { error: 'session could not be created', cause };
  }
}
