// The host page of the script-tag demo. No build step: the SDK is the global `PlatformEmbed`.
/* global PlatformEmbed */
(async () => {
  const config = await (await fetch('/config.json')).json();

  // Everything the embed needs is in attributes, but for the session: `session-url="/api/session"`
  // would do, and this host sets the `session` property to a function calling the same route
  // instead, so that a failure can show what the route answered. The route mints a fresh
  // single-use session for every load (first mount and reload).
  const dashboard = document.createElement('platform-dashboard');
  dashboard.setAttribute('base-url', config.baseUrl);
  dashboard.setAttribute('public-id', config.publicId);
  dashboard.setAttribute('allow-export', '');
  dashboard.setAttribute('iframe-title', 'Sales overview');
  dashboard.session = async () => {
    const response = await fetch('/api/session', { method: 'POST' });
    if (!response.ok) throw new Error(await describeRouteFailure(response));
    return response.json();
  };

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

/** What a failed answer of the session route says: its status, its message and (demo only) the cause. */
async function describeRouteFailure(response) {
  const body = await response.json().catch(() => null);
  const said = [body?.error, body?.cause].filter(Boolean).join(': ');
  return `the session route answered ${response.status}${said ? ` (${said})` : ''}`;
}
