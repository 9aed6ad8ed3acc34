// The page: a static shell (prerendered by `next build`, as `cacheComponents` does) and, inside
// <Suspense>, a server component that mints this page view's first session while rendering and
// hands it to the client component as `initialSession`, so the iframe starts loading without a
// round trip to a session route. Later loads call the Server Action (see Dashboard.tsx).
import { Suspense } from 'react';
import { connection } from 'next/server';
import { unstable_rethrow } from 'next/navigation';
import { Dashboard } from './Dashboard';
import { mintSessionFor, readPlatformConfig } from './platform';

// A session is single-use, lives 5 minutes and belongs to one viewer: never prerendered, cached or
// shared. `connection()` (a real host reads `cookies()` for its signed-in user) makes this
// component render for every request; Next.js answers the page with `Cache-Control: private,
// no-cache, no-store, max-age=0, must-revalidate`.
async function MintedDashboard() {
  await connection();
  const config = readPlatformConfig();
  let initialSession: string | undefined;
  let initialSessionError: string | undefined;
  try {
    ({ sessionId: initialSession } = await mintSessionFor(config));
  } catch (error) {
    // Next.js's own signals (a redirect, a dynamic render) go on; a failed mint does not fail the
    // page: without initialSession the first load calls the Server Action, and a failure shows
    // in the embed's error UI.
    unstable_rethrow(error);
    initialSessionError = error instanceof Error ? error.message : String(error);
    console.error(`Next.js host, first session: ${initialSessionError}`);
  }
  return (
    <Dashboard
      baseUrl={config.baseUrl}
      publicId={config.publicId}
      initialSession={initialSession}
      initialSessionError={initialSessionError}
    />
  );
}

export default function Page() {
  return (
    <Suspense fallback={<p data-testid="page-loading">Loading the dashboard…</p>}>
      <MintedDashboard />
    </Suspense>
  );
}

// With cacheComponents a route the viewer left stays rendered, hidden, and so does its embed
// (same iframe, same session). But each navigation back to it fetches its dynamic part again by
// default, so MintedDashboard would render again: a session minted for nothing (the kept embed
// needs none), and the navigation waiting for it. For 5 minutes after a render, the router reuses
// it instead: coming back mints nothing and shows the kept dashboard at once.
export const unstable_dynamicStaleTime = 300;
