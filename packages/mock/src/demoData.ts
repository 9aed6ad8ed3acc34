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
  /**
   * Its texts (title, widget titles, row labels) in other languages, by language (`es`) and
   * English text, as the dashboard's author translated them; shown in the embed's locale.
   * Events keep reporting the original texts. @default {@link DEFAULT_TRANSLATIONS}
   */
  translations?: Record<string, Record<string, string>>;
}

/** Spanish, French and German for the texts of the default dashboards. */
export const DEFAULT_TRANSLATIONS: Record<string, Record<string, string>> = {
  es: {
    'Sales overview': 'Resumen de ventas',
    'Support health': 'Estado del soporte',
    Revenue: 'Ingresos',
    Orders: 'Pedidos',
    Conversion: 'Conversión',
    'Orders by status': 'Pedidos por estado',
    completed: 'completado',
    processing: 'en proceso',
    shipped: 'enviado',
    cancelled: 'cancelado',
    'Open tickets': 'Tickets abiertos',
    CSAT: 'Satisfacción (CSAT)',
  },
  fr: {
    'Sales overview': 'Aperçu des ventes',
    'Support health': 'Santé du support',
    Revenue: "Chiffre d'affaires",
    Orders: 'Commandes',
    Conversion: 'Conversion',
    'Orders by status': 'Commandes par statut',
    completed: 'terminée',
    processing: 'en cours',
    shipped: 'expédiée',
    cancelled: 'annulée',
    'Open tickets': 'Tickets ouverts',
    CSAT: 'Satisfaction (CSAT)',
  },
  de: {
    'Sales overview': 'Verkaufsübersicht',
    'Support health': 'Support-Status',
    Revenue: 'Umsatz',
    Orders: 'Bestellungen',
    Conversion: 'Konversion',
    'Orders by status': 'Bestellungen nach Status',
    completed: 'abgeschlossen',
    processing: 'in Bearbeitung',
    shipped: 'versandt',
    cancelled: 'storniert',
    'Open tickets': 'Offene Tickets',
    CSAT: 'Zufriedenheit (CSAT)',
  },
};

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
    translations: DEFAULT_TRANSLATIONS,
    ...d,
  };
}
