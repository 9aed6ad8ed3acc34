// The React fixture: one <PlatformDashboard> whose props the test changes, rendered by the
// server bundle (renderToString) and by the browser bundle (createRoot or hydrateRoot), both
// under <StrictMode>, in React's development build.
import { StrictMode, createRef, useEffect } from 'react';
import { PlatformDashboard, type ColorScheme, type EmbedHandle } from '@platform-embed/react';

/** The props the test controls. */
export interface AppProps {
  baseUrl: string;
  publicId: string;
  colorScheme?: ColorScheme;
}

/** The handle of the one dashboard on the page (a module-level ref: there is one instance). */
export const dashboard = createRef<EmbedHandle<'dashboard'>>();

const session = () => fetch('/api/session', { method: 'POST' }).then((response) => response.json());

/** Counts how often React ran the mount effect: twice per mount under StrictMode in development. */
export const counters = { effects: 0 };

function App(props: AppProps) {
  useEffect(() => {
    counters.effects++;
  }, []);
  return <PlatformDashboard ref={dashboard} {...props} session={session} style={{ width: 400, height: 300 }} />;
}

/** The element tree both sides render. */
export const tree = (props: AppProps) => (
  <StrictMode>
    <App {...props} />
  </StrictMode>
);
