import { Component, input, signal } from '@angular/core';
import { PlatformDashboard, PlatformEmbedError, PlatformEmbedLoading } from '@platform-embed/angular';

// A host's component, as the README's "Testing your integration" shows it (hostApp.test.ts is its test).
@Component({
  selector: 'app-sales-dashboard',
  imports: [PlatformDashboard, PlatformEmbedLoading, PlatformEmbedError],
  template: `
    <section>
      <p>{{ member() ? 'Drilled into ' + member() : 'Click a measure to drill in' }}</p>
      <platform-embed-dashboard
        baseUrl="https://acme.platform.example"
        publicId="sales-overview"
        [session]="session"
        [colorScheme]="dark() ? 'dark' : 'light'"
        (drilldown)="member.set($event.member)"
        style="height: 600px"
      >
        <ng-template platformEmbedLoading><p>Loading the dashboard…</p></ng-template>
        <ng-template platformEmbedError let-error let-retry="retry">
          <p>{{ error.message }} <button (click)="retry()">Try again</button></p>
        </ng-template>
      </platform-embed-dashboard>
    </section>
  `,
})
export class SalesDashboard {
  readonly dark = input(false);
  protected readonly member = signal<string | undefined>(undefined);
  protected readonly session = () => fetch('/api/embed-session', { method: 'POST' });
}
