// The keep-alive app of e2e/keepAliveReact.spec.ts: a fresh React app as a user writes it (Vite,
// @vitejs/plugin-react, react-router 7, <StrictMode>), importing the packed @platform-embed/react
// by package name. Copied into the scaffold as main.tsx and built once per mode. Its pages, under
// the build's base (/dev/ or /prod/):
//   activity             <Activity> hidden and shown around a <PlatformDashboard> (no keepAlive)
//   keep/sales           a route with <PlatformDashboard keepAlive>, keep/settings without one
//   plain/sales          the same route without keepAlive (the contrast)
//   preload/sales        keepAlive, and hovering the link to it preloads the dashboard
//   (keep and preload pages: "Sign out" calls releaseEmbeds(), "Sign in as Bob" changes the viewer)
//   bounds/a, bounds/b   two kept-alive dashboards (sales-overview, support-health), bounds/settings
// The page's query: `platform` (the mock's origin), `max` and `idle` (configureParking).
import { Activity, StrictMode, useEffect, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { Link, Outlet, RouterProvider, createBrowserRouter, useOutletContext, useParams } from 'react-router';
import {
  PlatformDashboard,
  configureParking,
  listenerCount,
  parkedCount,
  preload,
  releaseEmbeds,
  type ColorScheme,
  type EmbedHandle,
  type EmbedStatus,
} from '@platform-embed/react';

/** What the app shows the spec, as `window.ka`. */
export interface KeepAliveApp {
  /** The handle of the dashboard the current page shows (set by its ref), else `null`. */
  current: EmbedHandle<'dashboard'> | null;
  /** Every distinct handle a dashboard component received, in order. */
  handles: EmbedHandle<'dashboard'>[];
  /** Every status each of those handles went through (`<index in handles>:<status>`), in order. */
  statuses: string[];
  /** The handle `preload` returned, if the link was hovered. */
  preloaded: EmbedHandle<'dashboard'> | null;
  /** How often the app's mount effect ran: twice under StrictMode in development, once in production. */
  appEffects: number;
  /** How often a dashboard component's `onReady` ran. */
  readies: number;
  /** Whether this is the development build (`import.meta.env.DEV`). */
  dev: boolean;
  listenerCount: typeof listenerCount;
  parkedCount: typeof parkedCount;
  configureParking: typeof configureParking;
}

// Vite's build-time values (typed here: the repository's type check has no vite/client types).
const { DEV, BASE_URL } = (import.meta as unknown as { env: { DEV: boolean; BASE_URL: string } }).env;
const query = new URLSearchParams(location.search);
const baseUrl = query.get('platform')!;
if (query.has('max') || query.has('idle'))
  configureParking({
    ...(query.has('max') ? { max: Number(query.get('max')) } : {}),
    ...(query.has('idle') ? { idle: Number(query.get('idle')) } : {}),
  });

const ka: KeepAliveApp = {
  current: null,
  handles: [],
  statuses: [],
  preloaded: null,
  appEffects: 0,
  readies: 0,
  dev: DEV,
  listenerCount,
  parkedCount,
  configureParking,
};
(window as unknown as { ka: KeepAliveApp }).ka = ka;

// The host's backend mints the session (the README's session function: it returns the Response).
const sessionFor = (deploymentId: number) => () => fetch(`/api/session?deployment=${deploymentId}`, { method: 'POST' });
const salesSession = sessionFor(1);
/** The dashboard options every page shares (and the preload repeats). */
const SALES = { baseUrl, publicId: 'sales-overview', session: salesSession } as const;

// The ref of every dashboard: records the handle and the statuses it goes through.
const track = (handle: EmbedHandle<'dashboard'> | null) => {
  ka.current = handle;
  if (!handle || ka.handles.includes(handle)) return;
  const index = ka.handles.push(handle) - 1;
  const record = () => void ka.statuses.push(`${index}:${handle.getState().status satisfies EmbedStatus}`);
  record();
  handle.subscribe(record);
};

/** A dashboard as a route shows it: the loading and error UI asked for, so the spec sees whether either shows. */
function Dashboard(props: { keepAlive?: boolean; publicId?: string; deploymentId?: number; colorScheme?: ColorScheme; viewer?: string }) {
  const { deploymentId = 1, ...options } = props;
  return (
    <PlatformDashboard
      ref={track}
      {...SALES}
      session={deploymentId == 1 ? salesSession : sessionFor(deploymentId)}
      {...options}
      onReady={() => void ka.readies++}
      fallback={<p data-testid="embed-loading">Loading the dashboard…</p>}
      errorFallback={<p data-testid="embed-error">The dashboard failed</p>}
      style={{ width: 640, height: 400 }}
    />
  );
}

// ---- <Activity>: hidden is not gone ------------------------------------------------------

function ActivityPage() {
  const [visible, setVisible] = useState(true);
  const [scheme, setScheme] = useState<ColorScheme>('light');
  const [present, setPresent] = useState(true);
  return (
    <>
      <button data-testid="hide" onClick={() => setVisible(false)}>
        Hide
      </button>
      <button data-testid="show" onClick={() => setVisible(true)}>
        Show
      </button>
      <button data-testid="dark" onClick={() => setScheme('dark')}>
        Dark
      </button>
      <button data-testid="remove" onClick={() => setPresent(false)}>
        Remove
      </button>
      <output data-testid="scheme">{scheme}</output>
      {present && (
        <section data-testid="route">
          <Activity mode={visible ? 'visible' : 'hidden'}>
            <Dashboard colorScheme={scheme} />
          </Activity>
        </section>
      )}
    </>
  );
}

// ---- Routes left and entered again ---------------------------------------------------------

type Variant = 'keep' | 'plain' | 'preload';

function VariantLayout() {
  const variant = useParams().variant as Variant;
  // Who is signed in (the app's own state): a sign-out releases the embeds kept for them.
  const [viewer, setViewer] = useState<string | undefined>('ann');
  // Hovering the link loads the dashboard parked, with the route's options.
  const warm = variant == 'preload' ? () => void (ka.preloaded = preload('dashboard', { ...SALES, viewer })) : undefined;
  return (
    <>
      <button
        data-testid="sign-out"
        onClick={() => {
          releaseEmbeds();
          setViewer(undefined);
        }}
      >
        Sign out
      </button>
      <button data-testid="sign-in-bob" onClick={() => setViewer('bob')}>
        Sign in as Bob
      </button>
      <nav>
        <Link to="sales" data-testid="to-sales" onPointerEnter={warm}>
          Sales
        </Link>{' '}
        <Link to="settings" data-testid="to-settings">
          Settings
        </Link>
      </nav>
      <Outlet context={viewer} />
    </>
  );
}

function SalesRoute() {
  const variant = useParams().variant as Variant;
  const viewer = useOutletContext<string | undefined>();
  return (
    <section data-testid="sales">
      {/* The viewer's changes, made through the handle (not props, which come back with the route anyway). */}
      <button data-testid="set-dark" onClick={() => ka.current?.setColorScheme('dark')}>
        Dark
      </button>
      <button data-testid="set-filter" onClick={() => ka.current?.setFilter('orders', 'status', { value: 'completed' })}>
        Completed orders
      </button>
      <Dashboard keepAlive={variant != 'plain'} viewer={viewer} />
    </section>
  );
}

function BoundsLayout() {
  return (
    <>
      <nav>
        <Link to="a" data-testid="to-a">
          Sales
        </Link>{' '}
        <Link to="b" data-testid="to-b">
          Support
        </Link>{' '}
        <Link to="settings" data-testid="to-settings">
          Settings
        </Link>
      </nav>
      <Outlet />
    </>
  );
}

const Settings = () => <h1 data-testid="settings">Settings</h1>;

function App({ children }: { children: ReactNode }) {
  useEffect(() => void ka.appEffects++, []);
  return children;
}

const router = createBrowserRouter(
  [
    { path: 'activity', element: <ActivityPage /> },
    {
      path: 'bounds',
      element: <BoundsLayout />,
      children: [
        // (Keyed: without a key React would keep one component across the two routes and reload it.)
        { path: 'a', element: <Dashboard key="a" keepAlive /> },
        { path: 'b', element: <Dashboard key="b" keepAlive publicId="support-health" deploymentId={2} /> },
        { path: 'settings', element: <Settings /> },
      ],
    },
    {
      path: ':variant',
      element: <VariantLayout />,
      children: [
        { path: 'sales', element: <SalesRoute /> },
        { path: 'settings', element: <Settings /> },
      ],
    },
  ],
  { basename: BASE_URL.replace(/\/$/, '') },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App>
      <RouterProvider router={router} />
    </App>
  </StrictMode>,
);
