import type { MockPlatformOptions } from '../src/index';

/** The platform state `packages/server/test/sessionRequests.table.ts` documents at its top. */
export const TABLE_FIXTURE: MockPlatformOptions = {
  apiKeys: ['test-key-0123456789', { key: 'scoped-key-0123456789', deployments: [1] }],
  deployments: [1, 2],
  useCreatorMode: true,
  userAttributes: [
    { name: 'region', type: 'string' },
    { name: 'level', type: 'number' },
    { name: 'tags', type: 'string_array' },
  ],
  groups: ['sales', 'support'],
  internalUsers: ['alice'],
  embedTenants: [{ name: 'acme-corp', userAttributes: [{ name: 'department', type: 'string' }], groups: ['analysts'] }],
};

/** JSON text of any value; non-finite numbers become `1e999`, which JSON.parse reads back as Infinity. */
export function toJson(value: unknown): string {
  const marker = 'non-finite-number-7f3a';
  return JSON.stringify(value, (_k, v: unknown) => (typeof v == 'number' && !Number.isFinite(v) ? marker : v))
    .split(`"${marker}"`)
    .join('1e999');
}

/** POSTs a body to generate-session; `apiKey: null` sends no Authorization header. */
export async function postSession(origin: string, body: string, apiKey: string | null, headers: Record<string, string> = {}) {
  const res = await fetch(`${origin}/api/v1/embed/generate-session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey === null ? {} : { authorization: `Api-Key ${apiKey}` }), ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as { sessionId?: string; message?: string; field?: string } };
}

/** The config an embed page was rendered with (the JSON in `#mock-config`). */
export function pageConfig(html: string): Record<string, unknown> & { error?: { name: string; message: string } } {
  const m = /<script type="application\/json" id="mock-config">([^<]*)<\/script>/.exec(html);
  if (!m) throw new Error('no mock-config in the page');
  return JSON.parse(m[1]!);
}
