/** One widget of a mock dashboard: a number, optionally broken down into rows (a table). */
export interface MockWidget {
  /** Stable id, reported as `widgetId` in `download` and `drilldown` events. */
  id: string;
  /** Title shown on the widget and reported in `download` events. */
  title: string;
  /** The fully-qualified measure (`view.measure`) reported by `drilldown`. */
  member: string;
  /** The headline number (fake). */
  value: number;
  /** How the number is shown. @default 'number' */
  format?: 'number' | 'currency' | 'percent';
  /** Table rows; a widget with rows exports them as CSV (`rowCount`). */
  rows?: { label: string; value: number }[];
}

/** A published dashboard served at `/embed/dashboard/{publicId}`. */
export interface MockDashboard {
  /** The public id in the embed URL. */
  publicId: string;
  /** Title shown in the header and reported in `view`. */
  title: string;
  /** The deployment it belongs to: a signed session must be minted for this deployment. */
  deploymentId: number;
  /** Its widgets. @default a few widgets with fake numbers */
  widgets?: MockWidget[];
  /**
   * Its filter controls (`view.dimension`): `f_` launch options and `set-filter` actions are
   * applied only to these, like the platform does. @default ['orders.status', 'orders.created_at']
   */
  filters?: string[];
  /** Its time-granularity switchers (`tg_` launch options). @default ['orders.created_at'] */
  timeGrains?: string[];
  /** Its field switchers (`ms_` launch options), by replaced member. @default ['orders.revenue'] */
  fieldSwitches?: string[];
}

/** The widgets a dashboard gets when it declares none. */
export const DEFAULT_WIDGETS: MockWidget[] = [
  { id: 'revenue', title: 'Revenue', member: 'orders.revenue', value: 128430, format: 'currency' },
  { id: 'orders', title: 'Orders', member: 'orders.count', value: 1843 },
  { id: 'conversion', title: 'Conversion', member: 'orders.conversion_rate', value: 0.0342, format: 'percent' },
  {
    id: 'by-status',
    title: 'Orders by status',
    member: 'orders.count',
    value: 1843,
    rows: [
      { label: 'completed', value: 1402 },
      { label: 'processing', value: 291 },
      { label: 'shipped', value: 112 },
      { label: 'cancelled', value: 38 },
    ],
  },
];

/** The dashboards the mock serves when none are configured. */
export const DEFAULT_DASHBOARDS: MockDashboard[] = [
  { publicId: 'sales-overview', title: 'Sales overview', deploymentId: 1 },
  {
    publicId: 'support-health',
    title: 'Support health',
    deploymentId: 2,
    widgets: [
      { id: 'open', title: 'Open tickets', member: 'tickets.open_count', value: 87 },
      { id: 'csat', title: 'CSAT', member: 'tickets.csat', value: 0.91, format: 'percent' },
    ],
    filters: ['tickets.priority'],
    timeGrains: [],
    fieldSwitches: [],
  },
];

/** A dashboard with every default filled in, as the embed page receives it. */
export type ResolvedDashboard = Required<MockDashboard>;

/** Fills in a dashboard's defaults. */
export function resolveDashboard(d: MockDashboard): ResolvedDashboard {
  return {
    widgets: DEFAULT_WIDGETS,
    filters: ['orders.status', 'orders.created_at'],
    timeGrains: ['orders.created_at'],
    fieldSwitches: ['orders.revenue'],
    ...d,
  };
}
