// The host page of the script-tag demo. No build step: the SDK is the global `PlatformEmbed`.
/* global PlatformEmbed */
(async () => {
  const config = await (await fetch('/config.json')).json();

  // Everything the embed needs is in attributes. `session-url` names this host's own backend
  // route, which mints a fresh single-use session for every load (first mount and reload); the
  // SDK calls it with POST and reads its answer: `{ sessionId }` from a 2xx, a failure named by
  // its status and the route's message (retried for a 5xx or 429, after Retry-After).
  const dashboard = document.createElement('platform-dashboard');
  dashboard.setAttribute('base-url', config.baseUrl);
  dashboard.setAttribute('public-id', config.publicId);
  dashboard.setAttribute('session-url', '/api/session');
  dashboard.setAttribute('allow-export', '');
  dashboard.setAttribute('iframe-title', 'Sales overview');

  const log = document.querySelector('[data-testid="event-log"]');
  const status = document.querySelector('[data-testid="status"]');
  const failure = document.querySelector('[data-testid="embed-error"]');
  // One listener per catalog event, derived from the SDK's own catalog.
  for (const name of Object.keys(PlatformEmbed.EVENT_SCHEMAS)) {
    dashboard.addEventListener(`platform-${name}`, (event) => {
      const item = document.createElement('li');
      item.dataset.event = name;
      item.textContent = JSON.stringify(event.detail);
      log.append(item);
      log.scrollTop = log.scrollHeight;
    });
  }
  // A failed load shows its cause above the embed (the session route's answer, the platform's
  // fatal error, a timeout), not only a status word and a blank box.
  dashboard.addEventListener('platform-statechange', (event) => {
    const { status: current, error } = event.detail;
    status.textContent = current;
    failure.hidden = !(current === 'error' && error);
    if (current === 'error' && error) {
      failure.querySelector('code').textContent = error.code;
      failure.querySelector('p').textContent = error.message;
    }
  });

  const actions = {
    'scheme-dark': () => dashboard.setColorScheme('dark'),
    'scheme-light': () => dashboard.setColorScheme('light'),
    theme: () => dashboard.setTheme({ primaryColor: '#e4572e', borderRadius: 12 }),
    locale: () => dashboard.setLocale('es-MX'),
    filter: () => dashboard.setFilter('orders', 'status', { value: 'completed' }),
    navigate: () => dashboard.navigate('/widgets/revenue'),
    refresh: () => dashboard.refresh(),
    reload: () => dashboard.reload().catch(() => {}),
  };
  for (const button of document.querySelectorAll('[data-action]')) {
    button.addEventListener('click', () => actions[button.dataset.action]());
  }

  document.getElementById('embed').append(dashboard);
})();
