import type { Routes } from '@angular/router';
import { DashboardPage } from './dashboardPage';
import { ElementPage } from './elementPage';
import { KeptPage, ReusedPage, ThemePage } from './keptPages';
import { MistakePage } from './mistakePage';

/** The test's own pages (e2e/guideAngular.spec.ts), added to the guide's routes. */
export const testRoutes: Routes = [
  { path: 'dashboard', component: DashboardPage },
  { path: 'element', component: ElementPage },
  { path: 'reused', component: ReusedPage, data: { reuse: true } },
  { path: 'kept', component: KeptPage },
  { path: 'theme', component: ThemePage },
  { path: 'mistake', component: MistakePage },
];
