import { useState } from 'react';
import { PlatformDashboard } from '@platform-embed/react';

const getSession = () => fetch('/api/embed-session', { method: 'POST' }).then((r) => r.json());

export function SalesDashboard({ dark = false }: { dark?: boolean }) {
  const [member, setMember] = useState<string>();
  return (
    <section>
      <p>{member ? `Drilled into ${member}` : 'Click a measure to drill in'}</p>
      <PlatformDashboard
        baseUrl="https://acme.platform.example"
        publicId="sales-overview"
        session={getSession}
        colorScheme={dark ? 'dark' : 'light'}
        onDrilldown={({ member }) => setMember(member)}
        fallback={<p>Loading the dashboard…</p>}
        errorFallback={({ error, retry }) => (
          <p>
            {error.message} <button onClick={retry}>Try again</button>
          </p>
        )}
        style={{ height: 600 }}
      />
    </section>
  );
}
