import { Component, Injectable, afterRenderEffect, inject, signal, viewChild } from '@angular/core';
import { RouterLink } from '@angular/router';
import { PlatformDashboard } from '@platform-embed/angular';

// The routes of e2e/guideAngular.spec.ts's keep-alive tests: a dashboard on a reused route
// (`/reused`, detached and attached again by the zone build's RouteReuseStrategy), one with
// keepAlive on a route destroyed when left (`/kept`), and `/theme`, where the color scheme changes
// meanwhile. The links keep the page's query (`?plainRouter`).

/** The app's color scheme, which the dashboards follow. */
@Injectable({ providedIn: 'root' })
export class Theme {
  readonly dark = signal(false);
}

/** Every state the dashboards were seen in, for the tests (`window.embedStatuses`). */
const record = (status: string) => ((window as unknown as { embedStatuses?: string[] }).embedStatuses ??= []).push(status);

@Component({
  selector: 'app-nav',
  imports: [RouterLink],
  template: `
    <nav>
      <a routerLink="/reused" queryParamsHandling="preserve">Reused dashboard</a> |
      <a routerLink="/kept" queryParamsHandling="preserve">Kept dashboard</a> |
      <a routerLink="/theme" queryParamsHandling="preserve">Theme</a>
    </nav>
  `,
})
export class Nav {}

@Component({
  selector: 'app-reused-page',
  imports: [Nav, PlatformDashboard],
  template: `
    <app-nav />
    <h1>Reused dashboard</h1>
    <p>
      Status: <span data-testid="status">{{ dashboard().state().status }}</span>
    </p>
    <platform-embed-dashboard
      baseUrl="https://acme.platform.example"
      publicId="sales-overview"
      [session]="session"
      [colorScheme]="theme.dark() ? 'dark' : 'light'"
      style="height: 360px"
    />
  `,
})
export class ReusedPage {
  protected readonly theme = inject(Theme);
  protected readonly dashboard = viewChild.required(PlatformDashboard);
  protected readonly session = () => fetch('/api/embed-session', { method: 'POST' });
  constructor() {
    afterRenderEffect(() => record(this.dashboard().state().status));
  }
}

@Component({
  selector: 'app-kept-page',
  imports: [Nav, PlatformDashboard],
  template: `
    <app-nav />
    <h1>Kept dashboard</h1>
    <p>
      Status: <span data-testid="status">{{ dashboard().state().status }}</span>
    </p>
    <platform-embed-dashboard
      keepAlive
      baseUrl="https://acme.platform.example"
      publicId="sales-overview"
      [session]="session"
      [colorScheme]="theme.dark() ? 'dark' : 'light'"
      style="height: 360px"
    />
  `,
})
export class KeptPage extends ReusedPage {}

@Component({
  selector: 'app-theme-page',
  imports: [Nav],
  template: `
    <app-nav />
    <h1>Theme</h1>
    <button data-testid="dark" (click)="theme.dark.set(!theme.dark())">Dark</button>
  `,
})
export class ThemePage {
  protected readonly theme = inject(Theme);
}
