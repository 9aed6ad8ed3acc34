/*
 * The React adapter as a React 18 user writes it, type-checked against @types/react 18 and
 * @types/react-dom 18 (tsconfig.json here, run by the root `pnpm typecheck`). The lines marked
 * `React 18 types` hold only with React 18's type packages: if `react`, `react/jsx-runtime` or
 * `react-dom` resolved to the root's React 19 types, they would fail this check.
 */
import { StrictMode, useEffect, useRef, useState } from 'react';
import { render } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { PlatformChat, PlatformDashboard, usePlatformEmbed, type EmbedHandle } from '@platform-embed/react';

function Dashboard() {
  const dashboard = useRef<EmbedHandle<'dashboard'>>(null);
  const [loaded, setLoaded] = useState(0);
  useEffect(() => void dashboard.current?.setColorScheme('dark'), []);
  return (
    <PlatformDashboard
      ref={dashboard}
      baseUrl="https://acme.platform.example"
      publicId="sales-overview"
      session={() => fetch('/api/embed-session').then((r) => r.json())}
      allowExport
      onDashboardLoaded={(p) => setLoaded(p.widgetCount ?? loaded)}
      onDrilldown={({ member, value }) => console.log(member, value)}
      style={{ height: 600 }}
    />
  );
}

function Chat() {
  const box = useRef<HTMLDivElement>(null);
  const { state, embed } = usePlatformEmbed(box, { surface: 'chat', baseUrl: 'https://acme.platform.example' });
  // @ts-expect-error React 18 types: `useRef(null)` gives a read-only RefObject (mutable in React 19)
  box.current = null;
  return (
    <>
      <button disabled={state.status !== 'ready'} onClick={() => embed?.refresh()}>
        Refresh
      </button>
      <div ref={box} style={{ height: 600 }} />
      <PlatformChat baseUrl="https://acme.platform.example" locale="es" className="chat" />
    </>
  );
}

const Async = async () => <Chat />;
// @ts-expect-error React 18 types: a component cannot be async (React 19's JSX.ElementType allows it)
export const asyncElement = <Async />;

const root = document.getElementById('root')!;
createRoot(root).render(
  <StrictMode>
    <Dashboard />
  </StrictMode>,
);
// React 18 types: the legacy `render` of react-dom (removed from React 19's types).
render(<Chat />, root);
