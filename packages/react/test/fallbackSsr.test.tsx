// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { expect, test } from 'vitest';
import { PlatformDashboard } from '../src/index';

test('server rendering: the fallback and aria-busy are in the HTML, the error UI is not, and window is never touched', () => {
  expect(typeof window).toBe('undefined');
  const html = renderToString(
    <PlatformDashboard
      baseUrl="https://tenant.example"
      publicId="p"
      style={{ height: 400 }}
      fallback={<p>Loading…</p>}
      errorFallback={({ error }) => <p>{error.message}</p>}
    />,
  );
  expect(html).toBe(
    '<div style="position:relative;height:400px" data-platform-embed="dashboard" aria-busy="true">' +
      '<div style="position:absolute;inset:0"><p>Loading…</p></div></div>',
  );
});
