import type { Routes } from '@angular/router';
import { DashboardPage } from './dashboardPage';
import { ElementPage } from './elementPage';
import { KeptPage, ReusedPage, SettingsPage } from './keptPages';
import { MistakePage } from './mistakePage';

export const routes: Routes = [
  { path: '', component: DashboardPage },
  { path: 'element', component: ElementPage },
  { path: 'reused', component: ReusedPage, data: { reuse: true } },
  { path: 'kept', component: KeptPage },
  { path: 'settings', component: SettingsPage },
  { path: 'mistake', component: MistakePage },
];
