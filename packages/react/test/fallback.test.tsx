import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { version } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { installFakePlatform, type FakePlatform } from '@platform-embed/core/testing';
import { PlatformDashboard, type PlatformEmbedProps } from '../src/index';

/* The opt-in loading and error UI of the components: `fallback` and `errorFallback`. */

const BASE = 'https://acme.platform.example';
let fake: FakePlatform;
beforeEach(() => {
  fake = installFakePlatform({ act });
});
afterEach(async () => {
  cleanup();
  fake.uninstall();
});

const Dashboard = (props: Partial<PlatformEmbedProps<'dashboard'>>) => (
  <PlatformDashboard baseUrl={BASE} publicId="sales" session={async () => fake.createSession()} retry={false} {...props} />
);
const box = () => document.querySelector<HTMLElement>('[data-platform-embed]')!;

describe('fallback and errorFallback', () => {
  test('without them nothing changes: no children but the iframe, no aria-busy, the style as given', async () => {
    render(<Dashboard style={{ height: 300 }} />);
    await fake.ready();
    expect(box().getAttribute('aria-busy')).toBeNull();
    expect(box().getAttribute('style')).toBe('height: 300px;');
    expect([...box().children].map((c) => c.tagName)).toEqual(['IFRAME']);
  });

  test('fallback: shown over the container while loading, with aria-busy; gone once ready; focus stays put', async () => {
    render(
      <>
        <button>host</button>
        <Dashboard fallback={<p>Loading sales…</p>} style={{ height: 300 }} />
      </>,
    );
    screen.getByText('host').focus();
    expect(screen.getByText('Loading sales…')).toBeTruthy();
    expect(box().getAttribute('aria-busy')).toBe('true');
    expect(box().style.position).toBe('relative');
    expect(box().style.height).toBe('300px');
    const embed = await fake.next();
    expect(screen.getByText('Loading sales…')).toBeTruthy();
    await embed.ready();
    expect(screen.queryByText('Loading sales…')).toBeNull();
    expect(box().getAttribute('aria-busy')).toBeNull();
    expect(box().lastElementChild).toBe(embed.iframe);
    expect(document.activeElement).toBe(screen.getByText('host'));
  });

  test('errorFallback as a function: the cause in a role="alert" region; retry reloads with a fresh session', async () => {
    render(
      <Dashboard
        fallback="Loading…"
        errorFallback={({ error, retry }) => (
          <>
            <p>{error.message}</p>
            <button onClick={retry}>Try again</button>
          </>
        )}
      />,
    );
    const embed = await fake.ready();
    await embed.fail('session expired');
    expect(screen.getByRole('alert').textContent).toContain('the embed failed: session expired');
    expect(box().getAttribute('aria-busy')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Loading…')).toBeTruthy();
    expect(await fake.ready()).toBe(embed);
    expect(embed.sessions).toHaveLength(2);
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  test('errorFallback as a node; no fallback: nothing shown while loading, but aria-busy', async () => {
    render(<Dashboard errorFallback={<p>The dashboard is unavailable</p>} />);
    expect(box().getAttribute('aria-busy')).toBe('true');
    expect(box().children).toHaveLength(0);
    const embed = await fake.ready();
    await embed.fail();
    expect(screen.getByRole('alert').textContent).toBe('The dashboard is unavailable');
  });

  test('server HTML has the fallback and aria-busy; hydration matches it', async () => {
    const ui = <Dashboard fallback={<p>Loading sales…</p>} errorFallback={<p>failed</p>} />;
    // Rendered for the server in this file's DOM, where the binding chose its layout effect (on a
    // server without a DOM it takes a plain effect: test/fallbackSsr.test.tsx): React 18 warns
    // about it, once per layout effect; React 19 no longer does.
    const warned = vi.spyOn(console, 'error').mockImplementation(() => {});
    const html = renderToString(ui);
    const warnings = warned.mock.calls.map(([message]) => String(message));
    expect(warnings.every((message) => message.startsWith('Warning: useLayoutEffect does nothing on the server'))).toBe(true);
    expect(warnings.length > 0).toBe(version.startsWith('18.'));
    warned.mockRestore();
    expect(html).toBe(
      '<div style="position:relative" data-platform-embed="dashboard" aria-busy="true"><div style="position:absolute;inset:0"><p>Loading sales…</p></div></div>',
    );
    const root = document.createElement('div');
    root.innerHTML = html;
    document.body.append(root);
    const error = vi.spyOn(console, 'error');
    const hydrated = await act(async () => hydrateRoot(root, ui));
    expect(error).not.toHaveBeenCalled();
    await fake.ready();
    expect(root.textContent).toBe('');
    act(() => hydrated.unmount());
    root.remove();
  });
});
