import type { ResolvedDashboard } from './demoData';
import type { LaunchOptions } from './launchOptions';

/** What the embed page script (`assets/embed.js`) is told by the server. */
export interface EmbedPageConfig {
  surface: 'dashboard' | 'chat' | 'app';
  mode: 'signed' | 'private';
  embedTenant: string | null;
  deploymentId: number | null;
  publicId?: string;
  /** The dashboard shown (the dashboard surface, or the app's first dashboard). */
  dashboard?: ResolvedDashboard;
  settings: { showDashboardChat?: boolean };
  user?: { name: string; picture?: string };
  /** Host origins allowed to embed; `null` allows any. */
  allowedOrigins: string[] | null;
  /** The launch options of the page's URL, read by the SDK's launch-option table. */
  launch?: LaunchOptions;
  /** Set on error pages: the page emits a fatal `error` and never `ready`. */
  error?: { name: string; message: string };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The one HTML shell of every embed page; the page script renders the rest from the config. */
export function renderEmbedPage(config: EmbedPageConfig): string {
  // `<` escaped so no string in the config can close the script element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const title = config.error ? 'Error' : (config.dashboard?.title ?? (config.surface === 'chat' ? 'Analytics chat' : 'Analytics app'));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · platform mock</title>
<link rel="stylesheet" href="/_mock/embed.css">
<script type="application/json" id="mock-config">${json}</script>
<script type="module" src="/_mock/embed.js"></script>
</head>
<body><div id="root" data-testid="embed-root" data-state="loading"><p class="boot">Loading…</p></div></body>
</html>
`;
}

/** The mock's home page: what it serves and how to mint a session. */
export function renderIndexPage(origin: string, apiKey: string, dashboards: ResolvedDashboard[]): string {
  const rows = dashboards
    .map(
      (d) =>
        `<li><code>${escapeHtml(`${origin}/embed/dashboard/${encodeURIComponent(d.publicId)}`)}</code> — ${escapeHtml(d.title)} (deployment ${d.deploymentId})</li>`,
    )
    .join('');
  const curl = `curl -s ${origin}/api/v1/embed/generate-session -H 'Content-Type: application/json' -H 'Authorization: Api-Key ${apiKey}' -d '{"deploymentId":1,"externalId":"jane@example.com"}'`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>platform mock</title><link rel="stylesheet" href="/_mock/embed.css"></head>
<body class="index"><main class="card"><h1>platform mock</h1>
<p>A mock of the platform for tests and demos. Mint a session (single-use, short-lived), then embed a page with it.</p>
<pre>${escapeHtml(curl)}</pre>
<h2>Dashboards</h2><ul>${rows}</ul>
<h2>Other surfaces</h2><ul><li><code>${escapeHtml(origin)}/embed/chat?sessionId=…</code></li><li><code>${escapeHtml(origin)}/embed/d/{deploymentId}/app?session=…</code> (creator-mode session)</li></ul>
</main></body></html>`;
}
