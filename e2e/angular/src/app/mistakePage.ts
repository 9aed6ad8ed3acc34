import { Component, inject, signal } from '@angular/core';
import { ActivatedRoute } from '@angular/router';
import { PlatformDashboard, PlatformEmbedError, type ColorScheme } from '@platform-embed/angular';

// A page of the test's own in the Angular guide's app (e2e/guideAngular.spec.ts): a bad input.
// The color scheme comes from outside the code (the page's query, as a CMS or a config would give
// it), so nothing checks it before the SDK. It must cost the embed (its error template says why),
// never the page around it.
@Component({
  selector: 'app-mistake-page',
  imports: [PlatformDashboard, PlatformEmbedError],
  template: `
    <h1>Sales</h1>
    <button data-testid="counter" (click)="clicks.set(clicks() + 1)">clicked {{ clicks() }}</button>
    <platform-embed-dashboard
      baseUrl="https://acme.platform.example"
      publicId="sales-overview"
      [session]="session"
      [colorScheme]="scheme"
      style="height: 300px"
    >
      <ng-template platformEmbedError let-error>
        <p data-testid="error">{{ error.message }}</p>
      </ng-template>
    </platform-embed-dashboard>
    <p data-testid="after">The rest of the page</p>
  `,
})
export class MistakePage {
  protected readonly scheme = inject(ActivatedRoute).snapshot.queryParamMap.get('scheme') as ColorScheme;
  protected readonly clicks = signal(0);
  protected readonly session = () => fetch('/api/embed-session', { method: 'POST' });
}
