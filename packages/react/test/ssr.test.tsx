// @vitest-environment node
import { renderToString } from 'react-dom/server';
import { expect, test } from 'vitest';
import { PlatformApp, PlatformChat, PlatformDashboard, usePlatformEmbed } from '../src/index';

function Own() {
  const { state, embed } = usePlatformEmbed(null, {
    surface: 'dashboard',
    baseUrl: 'https://tenant.example',
    publicId: 'p',
    session: () => 's',
  });
  return <p data-embed={String(embed)}>{state.status}</p>;
}

test('server rendering renders the containers and never touches window', () => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
  const html = renderToString(
    <main>
      <PlatformDashboard baseUrl="https://tenant.example" publicId="p" session={() => 's'} className="dash" style={{ height: 400 }} />
      <PlatformChat baseUrl="https://tenant.example" />
      <PlatformApp baseUrl="https://tenant.example" deploymentId={3} session="s" />
      <Own />
    </main>,
  );
  expect(html).toBe(
    '<main><div class="dash" style="height:400px" data-platform-embed="dashboard"></div><div data-platform-embed="chat"></div>' +
      '<div data-platform-embed="app"></div><p data-embed="null">idle</p></main>',
  );
});
