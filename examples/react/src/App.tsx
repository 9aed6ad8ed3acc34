import { useEffect, useRef, useState } from 'react';
import { usePlatformEmbed, type EmbedHandle, type EventMessage, type UnknownEventMessage } from '@platform-embed/react';

export interface DemoConfig {
  baseUrl: string;
  publicId: string;
}

// This host's own backend route mints a fresh single-use session for every load. The function
// returns the route's Response as it is: the SDK reads `{ sessionId }` from a 2xx, and names a
// failure by its status and the route's message (retried for a 5xx or 429, after Retry-After).
const mintSession = () => fetch('/api/session', { method: 'POST' });

type Logged = { id: number; event: string; payload: unknown };

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

  const actions: [string, string, (e: EmbedHandle<'dashboard'>) => unknown][] = [
    ['scheme-dark', 'Dark', (e) => e.setColorScheme('dark')],
    ['scheme-light', 'Light', (e) => e.setColorScheme('light')],
    ['theme', 'Brand theme', (e) => e.setTheme({ primaryColor: '#e4572e', borderRadius: 12 })],
    ['locale', 'es-MX', (e) => e.setLocale('es-MX')],
    ['filter', 'Filter: completed', (e) => e.setFilter('orders', 'status', { value: 'completed' })],
    ['navigate', 'Go to revenue', (e) => e.navigate('/widgets/revenue')],
    ['refresh', 'Refresh', (e) => e.refresh()],
    ['reload', 'Reload (new session)', (e) => e.reload().catch(() => {})],
  ];

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
              {actions.map(([name, label, run]) => (
                <button key={name} data-action={name} onClick={() => embed && run(embed)}>
                  {label}
                </button>
              ))}
            </div>
          </section>
          <section className="panel">
            <h2>Events</h2>
            <ol className="log" data-testid="event-log" ref={logList}>
              {log.map((entry) => (
                <li key={entry.id} data-event={entry.event}>
                  {JSON.stringify(entry.payload)}
                </li>
              ))}
            </ol>
          </section>
        </aside>
      </main>
    </>
  );
}
