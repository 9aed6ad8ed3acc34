import type { Routes } from '@angular/router';
import { DashboardPage } from './dashboardPage';

export const routes: Routes = [{ path: '', component: DashboardPage }];
