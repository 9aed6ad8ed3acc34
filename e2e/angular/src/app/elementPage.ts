import { CUSTOM_ELEMENTS_SCHEMA, Component, input, signal } from '@angular/core';
import '@platform-embed/element';
import type { EmbedState, PlatformEvent } from '@platform-embed/element';

// The README's Angular guide for the custom element (without @platform-embed/angular), in the
// fresh app: a sized block, `session-url` (an attribute, in the server HTML), typed events.
// `base-url` is bound here because the mock platform's origin comes from the page's query.
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
      [attr.base-url]="platform()"
      public-id="sales-overview"
      session-url="/api/embed-session"
      (platform-statechange)="onState($event)"
      (platform-drilldown)="onDrilldown($event)"
      style="display: block; height: 480px"
    ></platform-dashboard>
  `,
})
export class ElementPage {
  readonly platform = input.required<string>();
  protected readonly status = signal('');
  protected readonly drilled = signal('');

  protected onState(event: CustomEvent<EmbedState>) {
    this.status.set(event.detail.status);
  }
  protected onDrilldown(event: PlatformEvent<'drilldown'>) {
    this.drilled.set(`${event.detail.member} (${event.message.surface})`);
  }
}
