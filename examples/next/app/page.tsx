// A server component: it mints this page view's first session while rendering and hands it to
// the client component as `initialSession`, so the iframe starts loading without a round trip
// to a session route. Later loads call the Server Action (see Dashboard.tsx).
import { Dashboard } from './Dashboard';
import { mintSessionFor, readPlatformConfig } from './platform';

// A session is single-use, lives 5 minutes and belongs to one viewer: this page must never be
// prerendered, cached or shared. Rendered for every request, Next.js answers it with
// `Cache-Control: private, no-cache, no-store, max-age=0, must-revalidate`.
export const dynamic = 'force-dynamic';

export default async function Page() {
  const config = readPlatformConfig();
  let initialSession: string | undefined;
  let initialSessionError: string | undefined;
  try {
    ({ sessionId: initialSession } = await mintSessionFor(config));
  } catch (error) {
    // The page still renders: without initialSession, the first load calls the Server Action.
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
