import { CUSTOM_ELEMENTS_SCHEMA, Component, signal } from '@angular/core';
import '@platform-embed/element';
import type { EmbedState, PlatformEvent } from '@platform-embed/element';

// The custom element in Angular (without @platform-embed/angular), a page of the test's own in
// the Angular guide's app: a sized block, `session-url` (an attribute, in the server HTML), typed
// events.
@Component({
  selector: 'app-element-page',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <p>
      Status: <span data-testid="status">{{ status() }}</span>
    </p>
    <p>
      Drilled into <span data-testid="drilled">{{ drilled() }}</span>
    </p>
    <platform-dashboard
      base-url="https://acme.platform.example"
      public-id="sales-overview"
      session-url="/api/embed-session"
      (platform-statechange)="onState($event)"
      (platform-drilldown)="onDrilldown($event)"
      style="display: block; height: 480px"
    ></platform-dashboard>
  `,
})
export class ElementPage {
  protected readonly status = signal('');
  protected readonly drilled = signal('');

  protected onState(event: CustomEvent<EmbedState>) {
    this.status.set(event.detail.status);
  }
  protected onDrilldown(event: PlatformEvent<'drilldown'>) {
    this.drilled.set(`${event.detail.member} (${event.message.surface})`);
  }
}
