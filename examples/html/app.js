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
  // The log: what the embed said (an event and its payload) and what this host asked of it (the
  // action sent and its payload), newest last, following its newest entry.
  const append = (attributes, payload) => {
    const item = document.createElement('li');
    Object.assign(item.dataset, attributes);
    item.textContent = JSON.stringify(payload);
    log.append(item);
    log.scrollTop = log.scrollHeight;
  };
  // One listener per catalog event, derived from the SDK's own catalog.
  for (const name of Object.keys(PlatformEmbed.EVENT_SCHEMAS)) {
    dashboard.addEventListener(`platform-${name}`, (event) => append({ event: name }, event.detail));
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

  // Each button: what it calls, and what that sends (the action and its payload, or a reload).
  const brand = { primaryColor: '#e4572e', borderRadius: 12 };
  const completed = { value: 'completed' };
  const actions = {
    'scheme-dark': [() => dashboard.setColorScheme('dark'), 'set-color-scheme', { scheme: 'dark' }],
    'scheme-light': [() => dashboard.setColorScheme('light'), 'set-color-scheme', { scheme: 'light' }],
    theme: [() => dashboard.setTheme(brand), 'set-theme', brand],
    locale: [() => dashboard.setLocale('es-MX'), 'set-locale', { locale: 'es-MX' }],
    filter: [
      () => dashboard.setFilter('orders', 'status', completed),
      'set-filter',
      { filterUrlParameter: PlatformEmbed.filterUrlParameter('orders', 'status', completed) },
    ],
    navigate: [() => dashboard.navigate('/widgets/revenue'), 'navigate', { path: '/widgets/revenue' }],
    refresh: [() => dashboard.refresh(), 'refresh', {}],
    reload: [() => dashboard.reload().catch(() => {}), 'reload', {}],
  };
  for (const button of document.querySelectorAll('[data-action]')) {
    button.addEventListener('click', () => {
      const [run, sent, payload] = actions[button.dataset.action];
      run();
      append({ action: button.dataset.action, sent }, payload);
    });
  }

  document.getElementById('embed').append(dashboard);
})();
