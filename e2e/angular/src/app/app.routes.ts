import type { Routes } from '@angular/router';
import { DashboardPage } from './dashboardPage';
import { ElementPage } from './elementPage';

export const routes: Routes = [
  { path: '', component: DashboardPage },
  { path: 'element', component: ElementPage },
];
