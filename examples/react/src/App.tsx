import { useEffect, useRef, useState } from 'react';
import { filterUrlParameter, usePlatformEmbed, type EmbedHandle, type EventMessage, type UnknownEventMessage } from '@platform-embed/react';

export interface DemoConfig {
  baseUrl: string;
  publicId: string;
}

// This host's own backend route mints a fresh single-use session for every load. The function
// returns the route's Response as it is: the SDK reads `{ sessionId }` from a 2xx, and names a
// failure by its status and the route's message (retried for a 5xx or 429, after Retry-After).
const mintSession = () => fetch('/api/session', { method: 'POST' });

// The log: what the embed said (an event) and what this host asked of it (the action sent, or a reload).
type Logged = { id: number; payload: unknown } & ({ event: string } | { action: string; sent: string });

const BRAND = { primaryColor: '#e4572e', borderRadius: 12 };
const COMPLETED = { value: 'completed' };

/** Each button: its name, its label, what it calls, and what that sends (the action and its payload, or a reload). */
const ACTIONS: [string, string, (e: EmbedHandle<'dashboard'>) => unknown, string, object][] = [
  ['scheme-dark', 'Dark', (e) => e.setColorScheme('dark'), 'set-color-scheme', { scheme: 'dark' }],
  ['scheme-light', 'Light', (e) => e.setColorScheme('light'), 'set-color-scheme', { scheme: 'light' }],
  ['theme', 'Brand theme', (e) => e.setTheme(BRAND), 'set-theme', BRAND],
  ['locale', 'es-MX', (e) => e.setLocale('es-MX'), 'set-locale', { locale: 'es-MX' }],
  [
    'filter',
    'Filter: completed',
    (e) => e.setFilter('orders', 'status', COMPLETED),
    'set-filter',
    { filterUrlParameter: filterUrlParameter('orders', 'status', COMPLETED) },
  ],
  ['navigate', 'Go to revenue', (e) => e.navigate('/widgets/revenue'), 'navigate', { path: '/widgets/revenue' }],
  ['refresh', 'Refresh', (e) => e.refresh(), 'refresh', {}],
  ['reload', 'Reload (new session)', (e) => e.reload().catch(() => {}), 'reload', {}],
];

export function App({ config }: { config: DemoConfig }) {
  const box = useRef<HTMLDivElement>(null);
  const logList = useRef<HTMLOListElement>(null);
  const [log, setLog] = useState<Logged[]>([]);
  const { state, embed } = usePlatformEmbed(box, {
    surface: 'dashboard',
    baseUrl: config.baseUrl,
    publicId: config.publicId,
    session: mintSession,
    allowExport: true,
    title: 'Sales overview',
    // The catch-all: every validated event, typed as the union of the catalog's envelopes.
    onEvent: (message: EventMessage | UnknownEventMessage) =>
      setLog((entries) => [
        ...entries,
        { id: entries.length, event: message.type.replace('platform:event:', ''), payload: message.payload },
      ]),
  });

  // The log follows its newest entry.
  useEffect(() => {
    const list = logList.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [log.length]);

  const act = (embed: EmbedHandle<'dashboard'>, [action, , run, sent, payload]: (typeof ACTIONS)[number]) => {
    run(embed);
    setLog((entries) => [...entries, { id: entries.length, action, sent, payload }]);
  };

  return (
    <>
      <header>
        <h1>React host</h1>
        <span className="sub">@platform-embed/react · usePlatformEmbed</span>
      </header>
      <main>
        <section className="embed-area">
          {/* A failed load shows its cause (the session route's answer, the platform's fatal error, a timeout). */}
          {state.status === 'error' && state.error && (
            <div className="embed-error" data-testid="embed-error" role="alert">
              <strong>The embed failed</strong> <code>{state.error.code}</code>
              <p>{state.error.message}</p>
            </div>
          )}
          <div id="embed" ref={box} />
        </section>
        <aside>
          <section className="panel">
            <h2>Embed</h2>
            <p className="status">
              status: <b data-testid="status">{state.status}</b>
            </p>
          </section>
          <section className="panel">
            <h2>Actions</h2>
            <div className="actions">
              {ACTIONS.map((entry) => (
                <button key={entry[0]} data-action={entry[0]} onClick={() => embed && act(embed, entry)}>
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
    </>
  );
}
