// Server only: the platform this host embeds from, read from the environment at request time
// (never inlined into the client bundle: none of these names starts with NEXT_PUBLIC_), and the
// generate-session client that holds the API key.
import { createSessionClient, type SessionClient } from '@platform-embed/server';

/** The environment variables of this host, as `pnpm demo` (examples/shared/demo.mjs) sets them. */
export interface PlatformConfig {
  /** PLATFORM_URL: the tenant host (the mock platform in the demo). */
  baseUrl: string;
  /** PLATFORM_API_KEY: the key generate-session needs; stays on the server. */
  apiKey: string;
  /** PLATFORM_DEPLOYMENT_ID */
  deploymentId: number;
  /** PLATFORM_DASHBOARD_ID: the published dashboard's public id. */
  publicId: string;
}

export function readPlatformConfig(env: Record<string, string | undefined> = process.env): PlatformConfig {
  const missing = ['PLATFORM_URL', 'PLATFORM_API_KEY'].filter((name) => !env[name]);
  if (missing.length) throw new Error(`the Next.js host needs ${missing.join(' and ')} (pnpm demo sets them)`);
  return {
    baseUrl: env.PLATFORM_URL!,
    apiKey: env.PLATFORM_API_KEY!,
    deploymentId: Number(env.PLATFORM_DEPLOYMENT_ID ?? 1),
    publicId: env.PLATFORM_DASHBOARD_ID ?? 'sales-overview',
  };
}

let cached: { key: string; client: SessionClient } | undefined;

/** One generate-session client per configuration (the environment does not change while the server runs). */
function sessionClient(config: PlatformConfig): SessionClient {
  const key = `${config.baseUrl}\n${config.apiKey}`;
  if (cached?.key !== key) cached = { key, client: createSessionClient({ baseUrl: config.baseUrl, apiKey: config.apiKey }) };
  return cached.client;
}

/**
 * Mints a fresh single-use session for the signed-in viewer. A real host reads its own
 * signed-in user here (from `cookies()`, its auth library...) and decides attributes and groups
 * on the server, never from what the browser sends; the demo has one viewer.
 */
export async function mintSessionFor(config: PlatformConfig): Promise<{ sessionId: string }> {
  const { sessionId } = await sessionClient(config).generateSession({
    deploymentId: config.deploymentId,
    externalId: 'demo.viewer@example.com',
    userProfile: { displayName: 'Demo Viewer' },
  });
  return { sessionId };
}
