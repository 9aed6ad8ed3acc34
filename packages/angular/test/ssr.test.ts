// @vitest-environment node
import { Component, provideZonelessChangeDetection } from '@angular/core';
import { bootstrapApplication, type BootstrapContext } from '@angular/platform-browser';
import { provideServerRendering, renderApplication } from '@angular/platform-server';
import { expect, test, vi } from 'vitest';
import { PlatformDashboard, PlatformEmbedLoading } from '@platform-embed/angular';

// Server rendering in Node, without a DOM (no `window`, no `document`: anything that touched
// them would throw): the element and the loading template are rendered, nothing is embedded.

@Component({
  selector: 'app-root',
  imports: [PlatformDashboard, PlatformEmbedLoading],
  template: `
    <platform-embed-dashboard baseUrl="https://acme.platform.example" publicId="sales-overview" [session]="session" style="height: 600px">
      <ng-template platformEmbedLoading><p>Loading the dashboard…</p></ng-template>
    </platform-embed-dashboard>
  `,
})
class App {
  session = (): never => {
    throw new Error('no session is minted on the server');
  };
}

test('renders the element and the loading template on the server, without a DOM and without embedding', async () => {
  expect(typeof window).toBe('undefined');
  expect(typeof document).toBe('undefined');
  // Angular says so on the console in a development build (the tests run one).
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const bootstrap = (context: BootstrapContext) =>
    bootstrapApplication(App, { providers: [provideZonelessChangeDetection(), provideServerRendering()] }, context);
  const html = await renderApplication(bootstrap, { document: '<html><body><app-root></app-root></body></html>', url: '/' });
  const element = /<platform-embed-dashboard[^>]*>[\s\S]*<\/platform-embed-dashboard>/.exec(html)?.[0];
  expect(element).toBeDefined();
  expect(element).toContain('data-platform-embed="dashboard"');
  expect(element).toContain('aria-busy="true"');
  expect(element).toMatch(/style="[^"]*display: ?block/);
  expect(element).toContain('<p>Loading the dashboard…</p>');
  expect(element).not.toContain('<iframe');
  expect(log.mock.calls).toEqual([['Angular is running in development mode.']]);
  log.mockRestore();
});
