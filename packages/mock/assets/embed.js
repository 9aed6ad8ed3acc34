/* global location, history, URLSearchParams, matchMedia */
// The mock platform's embed page: renders the surface described by the server's config and
// speaks the postMessage protocol with the page that embedded it. Plain browser JavaScript,
// served at /_mock/embed.js; the protocol catalog comes from the core's own build.
import { ACTION_PREFIX, ACTION_SCHEMAS, EVENT_PREFIX, EVENT_SCHEMAS, SOURCE, checkPayload, isPlainObject } from '/_mock/core.mjs';

const config = JSON.parse(document.getElementById('mock-config').textContent);
const root = document.getElementById('root');
const params = new URLSearchParams(location.search);
const mountedAt = performance.now();

// The session is spent; keep it out of the address bar (and of anything copied from it).
if (params.has('session') || params.has('sessionId')) {
  const clean = new URL(location.href);
  clean.searchParams.delete('session');
  clean.searchParams.delete('sessionId');
  history.replaceState(null, '', clean);
}

// ---------------------------------------------------------------------------------------
// Who embedded us. Events go to that exact origin only, actions are accepted only from the
// parent window with that origin. Never '*'.
const embedded = window.parent !== window;
const hostOrigin = (() => {
  if (!embedded) return null;
  const ancestor = location.ancestorOrigins && location.ancestorOrigins[0];
  if (ancestor) return ancestor;
  try {
    return new URL(document.referrer).origin;
  } catch {
    return null;
  }
})();
const hostAllowed = !!hostOrigin && hostOrigin !== 'null' && (!config.allowedOrigins || config.allowedOrigins.includes(hostOrigin));

// ---------------------------------------------------------------------------------------
// Launch options, read by the server from the SDK's launch-option table (src/launchOptions.ts):
// only the literal opposite of a flag's default changes it, keyed options only for this dashboard's controls.
const launch = config.launch ?? { ignored: [], filters: {}, timeGrains: {}, fieldSwitches: {} };
const dashboard = config.dashboard;

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------
// What the host changed with actions, and what the viewer did.
const view = {
  colorScheme: 'light',
  theme: {},
  locale: launch.locale || 'en',
  filters: new Map(Object.entries(launch.filters)),
  ignoredFilters: [],
  path: config.surface == 'dashboard' ? `/dashboards/${config.publicId}` : config.surface == 'chat' ? '/chat' : '/app',
  refreshCount: 0,
  lastAction: null,
  rejected: [],
  events: [],
  banner: null,
  answers: [],
  // What the viewer typed; until then the input shows a sample question in their language.
  query: null,
  loadedWidgets: 0,
};
const PAGES = {
  dashboard: [view.path, `${view.path}/details`],
  chat: ['/chat', '/chat/history'],
  app: ['/app', '/app/workbooks', '/app/folders'],
}[config.surface];

// Every word of the page's own interface, per language. Dashboard content (titles, row labels)
// is translated by the dashboard's `translations`, as its author would; protocol values (paths,
// schemes, action names) are shown as they are.
const LABELS = {
  en: {
    welcome: 'Signed in as',
    refresh: 'Refreshed',
    filters: 'Filters',
    none: 'none',
    ask: 'Ask AI',
    askLabel: 'Question for the AI',
    sampleQuery: 'Top 5 products by revenue',
    askHint: 'Ask a question about your data.',
    answer: 'Answer to',
    agentFailed: 'The agent could not answer (mock failure).',
    chatHidden: 'AI chat hidden for this session',
    signin: 'Sign in',
    privateMode: 'Private mode: the viewer signs in inside the frame.',
    viewer: 'Viewer actions',
    back: 'Back',
    edit: 'Edit',
    duplicate: 'Duplicate',
    navigate: 'Navigate',
    exportCsv: 'Export CSV',
    drilldown: 'Drill down',
    raiseError: 'Raise error',
    dismiss: 'Dismiss',
    queryFailed: 'A query failed (raised from the viewer).',
    path: 'Path',
    colorScheme: 'Color scheme',
    primaryColor: 'Primary color',
    defaultValue: 'default',
    theme: 'Theme',
    locale: 'Locale',
    ignoredFilters: 'Ignored filters',
    refreshCount: 'Refresh count',
    lastAction: 'Last action',
    rejectedActions: 'Rejected actions',
    hostOrigin: 'Host origin',
    notEmbedded: 'not embedded',
    launchOptions: 'Launch options',
    refused: 'Embedding refused',
    refusedFor: 'This page may not be embedded by',
    unknownOrigin: 'an unknown origin',
  },
  es: {
    welcome: 'Sesión de',
    refresh: 'Actualizado',
    filters: 'Filtros',
    none: 'ninguno',
    ask: 'Preguntar a la IA',
    askLabel: 'Pregunta para la IA',
    sampleQuery: '5 productos más vendidos',
    askHint: 'Haz una pregunta sobre tus datos.',
    answer: 'Respuesta a',
    agentFailed: 'El agente no pudo responder (fallo simulado).',
    chatHidden: 'El chat con IA está oculto en esta sesión',
    signin: 'Iniciar sesión',
    privateMode: 'Modo privado: el usuario inicia sesión dentro del marco.',
    viewer: 'Acciones del usuario',
    back: 'Atrás',
    edit: 'Editar',
    duplicate: 'Duplicar',
    navigate: 'Navegar',
    exportCsv: 'Exportar CSV',
    drilldown: 'Ver detalle',
    raiseError: 'Provocar error',
    dismiss: 'Cerrar',
    queryFailed: 'Una consulta falló (provocado por el usuario).',
    path: 'Ruta',
    colorScheme: 'Esquema de color',
    primaryColor: 'Color principal',
    defaultValue: 'predeterminado',
    theme: 'Tema',
    locale: 'Idioma',
    ignoredFilters: 'Filtros ignorados',
    refreshCount: 'Actualizaciones',
    lastAction: 'Última acción',
    rejectedActions: 'Acciones rechazadas',
    hostOrigin: 'Origen del anfitrión',
    notEmbedded: 'no incrustado',
    launchOptions: 'Opciones de inicio',
    refused: 'Incrustación rechazada',
    refusedFor: 'Esta página no puede incrustarse desde',
    unknownOrigin: 'un origen desconocido',
  },
  fr: {
    welcome: 'Connecté en tant que',
    refresh: 'Actualisé',
    filters: 'Filtres',
    none: 'aucun',
    ask: "Demander à l'IA",
    askLabel: "Question pour l'IA",
    sampleQuery: 'Top 5 des produits',
    askHint: 'Posez une question sur vos données.',
    answer: 'Réponse à',
    agentFailed: "L'agent n'a pas pu répondre (échec simulé).",
    chatHidden: 'Le chat IA est masqué pour cette session',
    signin: 'Se connecter',
    privateMode: 'Mode privé : le lecteur se connecte dans le cadre.',
    viewer: 'Actions du lecteur',
    back: 'Retour',
    edit: 'Modifier',
    duplicate: 'Dupliquer',
    navigate: 'Naviguer',
    exportCsv: 'Exporter en CSV',
    drilldown: 'Détailler',
    raiseError: 'Provoquer une erreur',
    dismiss: 'Fermer',
    queryFailed: 'Une requête a échoué (provoqué par le lecteur).',
    path: 'Chemin',
    colorScheme: 'Jeu de couleurs',
    primaryColor: 'Couleur principale',
    defaultValue: 'par défaut',
    theme: 'Thème',
    locale: 'Langue',
    ignoredFilters: 'Filtres ignorés',
    refreshCount: 'Actualisations',
    lastAction: 'Dernière action',
    rejectedActions: 'Actions refusées',
    hostOrigin: "Origine de l'hôte",
    notEmbedded: 'non intégré',
    launchOptions: 'Options de lancement',
    refused: 'Intégration refusée',
    refusedFor: 'Cette page ne peut pas être intégrée par',
    unknownOrigin: 'une origine inconnue',
  },
  de: {
    welcome: 'Angemeldet als',
    refresh: 'Aktualisiert',
    filters: 'Filter',
    none: 'keine',
    ask: 'KI fragen',
    askLabel: 'Frage an die KI',
    sampleQuery: 'Top-5-Produkte nach Umsatz',
    askHint: 'Stellen Sie eine Frage zu Ihren Daten.',
    answer: 'Antwort auf',
    agentFailed: 'Der Agent konnte nicht antworten (simulierter Fehler).',
    chatHidden: 'Der KI-Chat ist in dieser Sitzung ausgeblendet',
    signin: 'Anmelden',
    privateMode: 'Privater Modus: Der Betrachter meldet sich im Frame an.',
    viewer: 'Aktionen',
    back: 'Zurück',
    edit: 'Bearbeiten',
    duplicate: 'Duplizieren',
    navigate: 'Navigieren',
    exportCsv: 'CSV exportieren',
    drilldown: 'Drilldown',
    raiseError: 'Fehler auslösen',
    dismiss: 'Schließen',
    queryFailed: 'Eine Abfrage ist fehlgeschlagen (vom Betrachter ausgelöst).',
    path: 'Pfad',
    colorScheme: 'Farbschema',
    primaryColor: 'Primärfarbe',
    defaultValue: 'Standard',
    theme: 'Design',
    locale: 'Sprache',
    ignoredFilters: 'Ignorierte Filter',
    refreshCount: 'Aktualisierungen',
    lastAction: 'Letzte Aktion',
    rejectedActions: 'Abgelehnte Aktionen',
    hostOrigin: 'Host-Origin',
    notEmbedded: 'nicht eingebettet',
    launchOptions: 'Startoptionen',
    refused: 'Einbettung abgelehnt',
    refusedFor: 'Diese Seite darf nicht eingebettet werden von',
    unknownOrigin: 'einem unbekannten Origin',
  },
};
const language = () => view.locale.slice(0, 2).toLowerCase();
const t = (key) => (LABELS[language()] || LABELS.en)[key] ?? LABELS.en[key];
// Dashboard content in the viewer's language, when the dashboard has a translation for it.
const translated = (text) => (dashboard && dashboard.translations && dashboard.translations[language()]?.[text]) || text;

// ---------------------------------------------------------------------------------------
// Outgoing events. Each payload is checked against the core's catalog before it leaves, so
// the mock can never teach a host something the real protocol does not say.
const EVENTS = new Map(Object.entries(EVENT_SCHEMAS));
let readySent = false;

function emit(name, payload) {
  const problem = checkPayload(EVENTS.get(name), payload);
  if (problem) throw new Error(`mock bug: ${name} ${problem}`);
  // `ready` is the first event of a session; only a fatal error may come without it.
  if (name != 'ready' && !readySent && !(name == 'error' && payload.fatal)) return;
  if (name == 'ready') {
    if (readySent) return;
    readySent = true;
  }
  const message = {
    source: SOURCE,
    direction: 'event',
    type: EVENT_PREFIX + name,
    payload,
    timestamp: Date.now(),
    surface: config.surface,
  };
  view.events.unshift(`${name} ${JSON.stringify(payload)}`);
  view.events.length = Math.min(view.events.length, 8);
  if (hostAllowed) window.parent.postMessage(message, hostOrigin);
}

// ---------------------------------------------------------------------------------------
// Incoming actions: sender first (source and origin), then the envelope, then the payload.
const ACTIONS = new Map(Object.entries(ACTION_SCHEMAS));

window.addEventListener('message', (event) => {
  if (!hostAllowed || event.source !== window.parent || event.origin !== hostOrigin) return;
  const data = event.data;
  const reason = !isPlainObject(data)
    ? 'not an object'
    : data.source !== SOURCE || data.direction !== 'action'
      ? 'not an action envelope'
      : typeof data.type != 'string' ||
          data.type.slice(0, ACTION_PREFIX.length) !== ACTION_PREFIX ||
          !ACTIONS.has(data.type.slice(ACTION_PREFIX.length))
        ? 'unknown action type'
        : !isPlainObject(data.payload)
          ? 'payload is not an object'
          : checkPayload(ACTIONS.get(data.type.slice(ACTION_PREFIX.length)), data.payload);
  if (reason) return reject(reason);
  // The platform loses actions that arrive before it has mounted (before `ready`).
  if (!readySent) return reject('action before ready: lost');
  apply(data.type.slice(ACTION_PREFIX.length), data.payload);
});

function reject(reason) {
  view.rejected.unshift(reason);
  render();
}

function apply(name, payload) {
  view.lastAction = name;
  if (name == 'set-color-scheme') view.colorScheme = payload.scheme;
  else if (name == 'set-theme') view.theme = { ...payload };
  else if (name == 'set-locale') view.locale = payload.locale;
  else if (name == 'set-filter') setFilter(payload.filterUrlParameter);
  else if (name == 'navigate') go(payload.path);
  else if (name == 'refresh') view.refreshCount++;
  render();
}

function supportedLocale(locale) {
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length > 0;
  } catch {
    return false;
  }
}

function setFilter(parameter) {
  const eq = parameter.indexOf('=');
  const member = parameter.slice(2, eq);
  let value = parseJson(parameter.slice(eq + 1));
  if (value === undefined) value = parseJson(safeDecode(parameter.slice(eq + 1)));
  if (!isPlainObject(value)) {
    emit('error', {
      message: `Filter ${member}: the value is not a JSON object`,
      name: 'FilterError',
      context: 'set-filter',
      fatal: false,
    });
    return;
  }
  if (dashboard && dashboard.filters.includes(member)) view.filters.set(member, value);
  else view.ignoredFilters.push(member);
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function go(path) {
  const previousPath = view.path;
  view.path = path;
  emit('navigate', { path, previousPath });
  emit('view', viewPayload());
}

function viewPayload() {
  return {
    surface: config.surface,
    path: view.path,
    ...(config.publicId ? { publicId: config.publicId } : {}),
    ...(dashboard && config.surface == 'dashboard' ? { title: dashboard.title } : {}),
  };
}

// ---------------------------------------------------------------------------------------
// Viewer actions (buttons in the frame).
let chatCount = 0;
const viewer = {
  navigate() {
    go(PAGES[(PAGES.indexOf(view.path) + 1) % PAGES.length]);
  },
  'download-csv'() {
    const w = tableWidget();
    emit('download', { format: 'csv', target: 'widget', widgetId: w.id, title: w.title, rowCount: w.rows ? w.rows.length : 1 });
  },
  'download-png'() {
    emit('download', { format: 'png', target: 'dashboard', title: dashboard.title });
  },
  'download-pdf'() {
    emit('download', { format: 'pdf', target: 'dashboard', title: dashboard.title });
  },
  drilldown() {
    const w = dashboard.widgets[0];
    emit('drilldown', { member: w.member, value: widgetValue(w), widgetId: w.id });
  },
  'ai-query'() {
    const query = (view.query ?? t('sampleQuery')).trim() || t('sampleQuery');
    const chatId = `chat-${++chatCount}`;
    const agentId = 'mock-agent';
    emit('ai-query', { query, status: 'submitted', chatId, agentId });
    const entry = { query, answer: '…' };
    view.answers.unshift(entry);
    render();
    setTimeout(() => {
      const failed = /\bfail/i.test(query);
      emit('ai-query', { query, status: failed ? 'error' : 'completed', chatId, agentId });
      entry.answer = failed
        ? t('agentFailed')
        : `${t('answer')} "${query}": ${formatNumber(dashboard ? widgetValue(dashboard.widgets[0]) : 42, 'number')}.`;
      render();
    }, 150);
  },
  'raise-error'() {
    view.banner = 'queryFailed';
    emit('error', {
      message: 'Query failed: mock error raised by the viewer',
      name: 'QueryError',
      context: dashboard ? `widget:${dashboard.widgets[0].id}` : config.surface,
      fatal: false,
    });
  },
  'dismiss-error'() {
    view.banner = null;
  },
  'sign-in'() {
    signIn();
  },
};

function tableWidget() {
  return dashboard.widgets.find((w) => w.rows) || dashboard.widgets[0];
}

root.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-action]');
  if (!button) return;
  viewer[button.dataset.action]();
  render();
});
root.addEventListener('input', (event) => {
  if (event.target.dataset.testid == 'ai-query-input') view.query = event.target.value;
});
root.addEventListener('submit', (event) => {
  event.preventDefault();
  viewer['ai-query']();
  render();
});

// ---------------------------------------------------------------------------------------
// Numbers react to filters (a stable factor per filter set), so a filter is visible.
function filterFactor() {
  if (!view.filters.size) return 1;
  let h = 7;
  for (const ch of JSON.stringify([...view.filters])) h = (h * 31 + ch.charCodeAt(0)) % 1000003;
  return 0.2 + (h % 700) / 1000;
}

function widgetValue(w) {
  const v = w.value * filterFactor();
  return w.format == 'percent' ? Math.round(v * 10000) / 10000 : Math.round(v);
}

function formatNumber(value, format) {
  const locale = supportedLocale(view.locale) ? view.locale : 'en';
  const options =
    format == 'currency'
      ? { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }
      : format == 'percent'
        ? { style: 'percent', maximumFractionDigits: 1 }
        : {};
  return new Intl.NumberFormat(locale, options).format(value);
}

// ---------------------------------------------------------------------------------------
// Rendering: the whole page from `view` each time (small DOM, no framework).
const esc = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const button = (action, label, extra = '') =>
  `<button type="button" data-action="${action}" data-testid="${action}" ${extra}>${esc(label)}</button>`;

function applyLook() {
  const html = document.documentElement;
  const dark = view.colorScheme == 'dark' || (view.colorScheme == 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  html.dataset.colorScheme = dark ? 'dark' : 'light';
  html.lang = view.locale;
  const theme = view.theme;
  html.style.setProperty('--primary', typeof theme.primaryColor == 'string' ? theme.primaryColor : '');
  html.style.setProperty(
    '--radius',
    theme.borderRadius === undefined ? '' : typeof theme.borderRadius == 'number' ? `${theme.borderRadius}px` : String(theme.borderRadius),
  );
  html.style.setProperty('--font', typeof theme.font == 'string' ? theme.font : '');
}

function header() {
  if (config.surface == 'chat' || !launch.showDashboardHeader) return '';
  const exportMenu =
    config.surface == 'dashboard' && launch.allowExport && launch.showDashboardExportMenu
      ? `<span class="export-menu" data-testid="export-menu">${button('download-png', 'PNG')}${button('download-pdf', 'PDF')}</span>`
      : '';
  const back = config.surface == 'app' ? launch.showWorkbookBackButton : launch.showDashboardBackButton;
  return `<header class="bar" data-testid="dashboard-header">
    ${back ? `<button type="button" class="ghost" data-testid="header-back" title="${esc(t('back'))}" aria-label="${esc(t('back'))}">←</button>` : ''}
    ${launch.showDashboardTitle ? `<h1 data-testid="dashboard-title">${esc(translated(dashboard.title))}</h1>` : '<span class="grow"></span>'}
    <span class="grow"></span>
    ${launch.showDashboardEditButton ? `<button type="button" class="ghost" data-testid="header-edit">${esc(t('edit'))}</button>` : ''}
    ${launch.showDashboardDuplicateButton ? `<button type="button" class="ghost" data-testid="header-duplicate">${esc(t('duplicate'))}</button>` : ''}
    ${exportMenu}
  </header>`;
}

function widgets() {
  return `<div class="grid">${dashboard.widgets
    .map((w, i) => {
      const loaded = i < view.loadedWidgets;
      const body = !loaded
        ? '<div class="skeleton"></div>'
        : w.rows
          ? `<table>${w.rows.map((r) => `<tr><td>${esc(translated(r.label))}</td><td class="num">${esc(formatNumber(Math.round(r.value * filterFactor()), w.format))}</td></tr>`).join('')}</table>`
          : `<div class="value" data-testid="widget-value-${esc(w.id)}">${esc(formatNumber(widgetValue(w), w.format))}</div>`;
      return `<section class="widget${w.rows ? ' wide' : ''}" data-testid="widget" data-widget-id="${esc(w.id)}" data-loaded="${loaded}">
        <h2>${esc(translated(w.title))}</h2>${body}<footer><code>${esc(w.member)}</code>${view.refreshCount ? ` · ${t('refresh')} ${view.refreshCount}×` : ''}</footer></section>`;
    })
    .join('')}</div>`;
}

function chat() {
  return `<div class="chat" data-testid="chat-transcript">${
    view.answers.length
      ? view.answers
          .map((a) => `<div class="q">${esc(a.query)}</div><div class="a" data-testid="ai-answer">${esc(a.answer)}</div>`)
          .join('')
      : `<p class="muted">${esc(t('askHint'))}</p>`
  }</div>`;
}

function viewerPanel() {
  const isDashboard = config.surface == 'dashboard';
  const showChat = !(isDashboard && config.settings.showDashboardChat === false);
  return `<aside class="panel" aria-label="${esc(t('viewer'))}">
    <h3>${esc(t('viewer'))}</h3>
    <div class="buttons">
      ${button('navigate', t('navigate'))}
      ${isDashboard && launch.allowExport ? button('download-csv', t('exportCsv')) : ''}
      ${isDashboard ? button('drilldown', t('drilldown')) : ''}
      ${button('raise-error', t('raiseError'), 'class="danger"')}
    </div>
    ${showChat ? `<form class="ask"><input data-testid="ai-query-input" value="${esc(view.query ?? t('sampleQuery'))}" aria-label="${esc(t('askLabel'))}">${button('ai-query', t('ask'))}</form>${config.surface == 'chat' ? '' : chat()}` : `<p class="muted" data-testid="chat-hidden">${esc(t('chatHidden'))}</p>`}
  </aside>`;
}

function statusBar() {
  const filters = view.filters.size ? [...view.filters].map(([k, v]) => `${k} = ${JSON.stringify(v)}`).join('; ') : t('none');
  const item = (id, label, value, wide = false) =>
    `<div${wide ? ' class="wide"' : ''}><dt>${esc(label)}</dt><dd data-testid="${id}">${esc(value)}</dd></div>`;
  const options = { ...launch };
  return `<dl class="status" data-testid="status">
    ${item('current-path', t('path'), view.path)}
    ${item('color-scheme', t('colorScheme'), view.colorScheme)}
    ${item('theme-primary', t('primaryColor'), view.theme.primaryColor ?? t('defaultValue'))}
    ${item('theme', t('theme'), JSON.stringify(view.theme))}
    ${item('locale', t('locale'), view.locale)}
    ${item('active-filters', t('filters'), filters)}
    ${item('ignored-filters', t('ignoredFilters'), view.ignoredFilters.join(', ') || t('none'))}
    ${item('refresh-count', t('refreshCount'), view.refreshCount)}
    ${item('last-action', t('lastAction'), view.lastAction ?? t('none'))}
    ${item('rejected-actions', t('rejectedActions'), view.rejected.length ? `${view.rejected.length}: ${view.rejected[0]}` : '0')}
    ${item('host-origin', t('hostOrigin'), hostOrigin ?? t('notEmbedded'))}
    ${item('launch-options', t('launchOptions'), JSON.stringify(options), true)}
  </dl>
  <ol class="events" data-testid="event-log">${view.events.map((e) => `<li>${esc(e)}</li>`).join('')}</ol>`;
}

function userBadge() {
  if (!config.user) return '';
  const initials = config.user.name
    .split(/[\s@.]+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0].toUpperCase())
    .join('');
  const avatar = config.user.picture
    ? `<img src="${esc(config.user.picture)}" alt="" onerror="this.replaceWith(Object.assign(document.createElement('span'),{className:'initials',textContent:${esc(JSON.stringify(initials))}}))">`
    : `<span class="initials">${esc(initials)}</span>`;
  return `<div class="user" data-testid="user">${avatar}<span>${esc(t('welcome'))} <b>${esc(config.user.name)}</b></span></div>`;
}

function render() {
  applyLook();
  if (config.error) {
    root.dataset.state = 'error';
    root.innerHTML = `<div class="card fatal" data-testid="fatal-error" role="alert"><h1>${esc(config.error.name)}</h1><p>${esc(config.error.message)}</p></div>`;
    return;
  }
  if (embedded && !hostAllowed) {
    root.dataset.state = 'refused';
    root.innerHTML = `<div class="card fatal" data-testid="host-refused" role="alert"><h1>${esc(t('refused'))}</h1><p>${esc(t('refusedFor'))} ${esc(hostOrigin ?? t('unknownOrigin'))}.</p></div>`;
    return;
  }
  if (!readySent) {
    root.dataset.state = 'signin';
    root.innerHTML = `<div class="card signin" data-testid="sign-in-screen"><h1>${esc(t('signin'))}</h1><p class="muted">${esc(t('privateMode'))}</p>${button('sign-in', t('signin'))}</div>`;
    return;
  }
  root.dataset.state = 'ready';
  root.dataset.surface = config.surface;
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.testid : null;
  const main = config.surface == 'chat' ? chat() : widgets();
  root.innerHTML = `${header()}
    ${view.banner ? `<div class="banner" data-testid="error-banner" role="alert">${esc(t(view.banner))} ${button('dismiss-error', '×', `class="ghost" aria-label="${esc(t('dismiss'))}"`)}</div>` : ''}
    <div class="meta">${userBadge()}<span class="badge" data-testid="mode">${esc(config.mode)}</span>${config.embedTenant ? `<span class="badge" data-testid="embed-tenant">${esc(config.embedTenant)}</span>` : ''}</div>
    <div class="layout"><main>${main}</main>${viewerPanel()}</div>
    ${statusBar()}`;
  if (focused) root.querySelector(`[data-testid="${focused}"]`)?.focus();
}

// ---------------------------------------------------------------------------------------
// Lifecycle: an error page only reports the fatal error; a signed page is ready at once;
// a private page after the viewer clicks "Sign in".
function signIn() {
  emit('ready', {
    embedTenant: config.embedTenant,
    deploymentId: config.deploymentId,
    mode: config.mode,
    surface: config.surface,
    ...(config.publicId ? { publicId: config.publicId } : {}),
  });
  emit('view', viewPayload());
  render();
  if (config.surface != 'dashboard') return;
  // Widgets "run their queries" one after another; dashboard-loaded follows the last one.
  const step = () => {
    view.loadedWidgets++;
    render();
    if (view.loadedWidgets < dashboard.widgets.length) setTimeout(step, 40);
    else
      emit('dashboard-loaded', {
        publicId: config.publicId,
        widgetCount: dashboard.widgets.length,
        loadDurationMs: Math.round(performance.now() - mountedAt),
      });
  };
  setTimeout(step, 40);
}

if (config.surface == 'app') view.loadedWidgets = dashboard.widgets.length;
render();
if (config.error) emit('error', { message: config.error.message, name: config.error.name, fatal: true });
else if (config.mode == 'signed' && (!embedded || hostAllowed)) signIn();
