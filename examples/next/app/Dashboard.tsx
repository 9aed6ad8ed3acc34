'use client';
// The client component: the one place with state, event handlers and the embed's ref. The server
// component (page.tsx) renders it with serializable props only: the ids, the base URL and the
// session minted while the page was rendered.
import { useEffect, useRef, useState } from 'react';
import {
  PlatformDashboard,
  filterUrlParameter,
  type ColorScheme,
  type DashboardLaunchOptions,
  type EmbedHandle,
  type EmbedState,
  type EmbedTheme,
  type EventMessage,
  type UnknownEventMessage,
} from '@platform-embed/react';
import { mintSession } from './actions';

export interface DashboardProps {
  baseUrl: string;
  publicId: string;
  /** Minted by the server component for this page view; used for the first load only. */
  initialSession?: string;
  /** Why the server could not mint it (demo only): the first load then calls the action. */
  initialSessionError?: string;
}

// Every later load (reload(), a retry) calls the Server Action, a POST to this page. Its answer
// is `{ sessionId }`, or (demo only) the cause of a failure, thrown here so the embed's error says it.
async function session(): Promise<{ sessionId: string }> {
  const answer = await mintSession();
  if ('error' in answer) throw new Error(`the session action failed (${answer.error}: ${answer.cause})`);
  return answer;
}

// The log: what the embed said (an event) and what this host asked of it (the action sent, or a reload).
type Logged = { id: number; payload: unknown } & ({ event: string } | { action: string; sent: string });
type Filters = DashboardLaunchOptions['filters'];

const BRAND: EmbedTheme = { primaryColor: '#e4572e', borderRadius: 12 };
const COMPLETED: Filters = { 'orders.status': { value: 'completed' } };

export function Dashboard({ baseUrl, publicId, initialSession, initialSessionError }: DashboardProps) {
  const dashboard = useRef<EmbedHandle<'dashboard'>>(null);
  const logList = useRef<HTMLOListElement>(null);
  const [state, setState] = useState<EmbedState | null>(null);
  const [log, setLog] = useState<Logged[]>([]);
  // The declarative props: changing one sends its action to the same iframe (no reload, no new session).
  const [colorScheme, setColorScheme] = useState<ColorScheme>('light');
  const [theme, setTheme] = useState<EmbedTheme>();
  const [locale, setLocale] = useState<string>();
  const [filters, setFilters] = useState<Filters>();

  // The ref is the embed's handle, the same object for the component's whole life.
  useEffect(() => {
    const embed = dashboard.current;
    if (!embed) return;
    setState(embed.getState());
    return embed.subscribe(setState);
  }, []);

  // The log follows its newest entry.
  useEffect(() => {
    const list = logList.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [log.length]);

  // Each button: its name, its label, what it does, and what that sends (the action and its
  // payload, or a reload). A changed prop is sent by the component as its action.
  const actions: [string, string, () => unknown, string, object][] = [
    ['scheme-dark', 'Dark', () => setColorScheme('dark'), 'set-color-scheme', { scheme: 'dark' }],
    ['scheme-light', 'Light', () => setColorScheme('light'), 'set-color-scheme', { scheme: 'light' }],
    ['theme', 'Brand theme', () => setTheme(BRAND), 'set-theme', BRAND],
    ['locale', 'es-MX', () => setLocale('es-MX'), 'set-locale', { locale: 'es-MX' }],
    [
      'filter',
      'Filter: completed',
      () => setFilters(COMPLETED),
      'set-filter',
      { filterUrlParameter: filterUrlParameter('orders', 'status', { value: 'completed' }) },
    ],
    // A button is a command: `navigate()` goes there every time, even after the viewer navigated
    // away in the embed. A `path` prop is state: it sends only when its value changes.
    ['navigate', 'Go to revenue', () => dashboard.current?.navigate('/widgets/revenue'), 'navigate', { path: '/widgets/revenue' }],
    ['refresh', 'Refresh', () => dashboard.current?.refresh(), 'refresh', {}],
    ['reload', 'Reload (new session)', () => dashboard.current?.reload().catch(() => {}), 'reload', {}],
  ];
  const act = ([action, , run, sent, payload]: (typeof actions)[number]) => {
    run();
    setLog((entries) => [...entries, { id: entries.length, action, sent, payload }]);
  };
  const status = state?.status ?? 'idle';

  return (
    <main>
      <section className="embed-area">
        {/* A failed load shows its cause (the session action's answer, the platform's fatal error, a timeout). */}
        {state?.status === 'error' && state.error && (
          <div className="embed-error" data-testid="embed-error" role="alert">
            <strong>The embed failed</strong> <code>{state.error.code}</code>
            <p>{state.error.message}</p>
            {initialSessionError && <p>While rendering the page: {initialSessionError}</p>}
          </div>
        )}
        <div id="embed">
          <PlatformDashboard
            ref={dashboard}
            style={{ height: '100%' }}
            baseUrl={baseUrl}
            publicId={publicId}
            initialSession={initialSession}
            session={session}
            allowExport
            title="Sales overview"
            colorScheme={colorScheme}
            theme={theme}
            locale={locale}
            filters={filters}
            // The catch-all: every validated event, typed as the union of the catalog's envelopes.
            onEvent={(message: EventMessage | UnknownEventMessage) =>
              setLog((entries) => [
                ...entries,
                { id: entries.length, event: message.type.replace('platform:event:', ''), payload: message.payload },
              ])
            }
          />
        </div>
      </section>
      <aside>
        <section className="panel">
          <h2>Embed</h2>
          <p className="status">
            status: <b data-testid="status">{status}</b>
          </p>
          <p className="status">
            first session: <b data-testid="initial-session">{initialSession ? 'minted on the server' : 'none'}</b>
          </p>
        </section>
        <section className="panel">
          <h2>Actions</h2>
          <div className="actions">
            {actions.map((entry) => (
              <button key={entry[0]} data-action={entry[0]} onClick={() => act(entry)}>
                {entry[1]}
              </button>
            ))}
          </div>
        </section>
        <section className="panel">
          <h2>Events</h2>
          <ol className="log" data-testid="event-log" ref={logList}>
            {log.map((entry) =>
              'event' in entry ? (
                <li key={entry.id} data-event={entry.event}>
                  {JSON.stringify(entry.payload)}
                </li>
              ) : (
                <li key={entry.id} data-action={entry.action} data-sent={entry.sent}>
                  {JSON.stringify(entry.payload)}
                </li>
              ),
            )}
          </ol>
        </section>
      </aside>
    </main>
  );
}
