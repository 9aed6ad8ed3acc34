import { Component, NgZone, signal } from '@angular/core';
import { PlatformDashboard, PlatformEmbedError, PlatformEmbedLoading, type EventMap } from '@platform-embed/angular';

// A page of the test's own in the Angular guide's app (e2e/guideAngular.spec.ts): the dashboard
// with declarative inputs, typed outputs, the handle, and the loading and error templates. The
// tenant is the guide's, which the test points at the mock platform.
@Component({
  selector: 'app-dashboard-page',
  imports: [PlatformDashboard, PlatformEmbedLoading, PlatformEmbedError],
  template: `
    <p>
      Status: <span data-testid="status">{{ dashboard.state().status }}</span>
    </p>
    <p>
      Drilled into <span data-testid="drilled">{{ drilled() }}</span> (in the zone: <span data-testid="in-zone">{{ inZone() }}</span>)
    </p>
    <p>
      Later: <span data-testid="later">{{ later }}</span>
    </p>
    <p>
      Loaded in <span data-testid="load-ms">{{ loadMs() }}</span> ms
    </p>
    <button data-testid="dark" (click)="dark.set(!dark())">Dark</button>
    <button data-testid="regions" (click)="publicId.set('sales-by-region')">Sales by region</button>
    <button data-testid="refresh" (click)="dashboard.handle()?.refresh()">Refresh</button>
    <platform-embed-dashboard
      #dashboard
      baseUrl="https://acme.platform.example"
      [publicId]="publicId()"
      [session]="session"
      [colorScheme]="dark() ? 'dark' : 'light'"
      [retry]="1"
      (drilldown)="onDrilldown($event)"
      (dashboardLoaded)="loadMs.set($event.loadDurationMs)"
      style="height: 480px"
    >
      <ng-template platformEmbedLoading><p data-testid="loading">Loading the dashboard…</p></ng-template>
      <ng-template platformEmbedError let-error let-retry="retry">
        <p data-testid="error">{{ error.message }}</p>
        <button data-testid="retry" (click)="retry()">Try again</button>
      </ng-template>
    </platform-embed-dashboard>
  `,
})
export class DashboardPage {
  protected readonly publicId = signal('sales-overview');
  protected readonly dark = signal(false);
  protected readonly drilled = signal('');
  protected readonly inZone = signal<boolean | null>(null);
  protected readonly loadMs = signal<number | undefined>(undefined);
  // A plain field set by a timer the handler starts: with zone.js only a handler that runs in
  // Angular's zone shows it (the timer's end triggers change detection); zoneless apps use signals.
  protected later = '';

  // The Response as it is: the SDK reads it (an HTTP failure is named by its status, a 5xx retried).
  protected readonly session = () => fetch('/api/embed-session', { method: 'POST' });

  protected onDrilldown({ member }: EventMap['drilldown']) {
    this.drilled.set(member);
    this.inZone.set(NgZone.isInAngularZone());
    setTimeout(() => (this.later = member));
  }
}
