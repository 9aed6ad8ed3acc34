#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startMockPlatform, type MockPlatformOptions } from './startMockPlatform';

const HELP = `platform-mock: a mock of the platform (generate-session and embed pages) for tests and demos

Usage: platform-mock [options]

  --host <name>               host to listen on (default localhost)
  --port <n>                  port, 0 for a free one (default 4600)
  --api-key <key>             accepted API key, repeatable (default mock-platform-api-key)
  --allowed-origin <origin>   host origin allowed to embed, repeatable (default any)
  --session-ttl <ms>          session lifetime (default 300000)
  --max-external-users <n>    external user limit (default 10000)
  --no-creator-mode           turn the useCreatorMode tenant flag off
  --config <file.json>        more options as JSON (dashboards, userAttributes, groups, embedTenants, internalUsers, ...)
  --help                      show this help
`;

function number(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

async function main() {
  const { values } = parseArgs({
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      'allowed-origin': { type: 'string', multiple: true },
      'session-ttl': { type: 'string' },
      'max-external-users': { type: 'string' },
      'no-creator-mode': { type: 'boolean' },
      config: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return void process.stdout.write(HELP);
  const fromFile = values.config ? (JSON.parse(readFileSync(values.config, 'utf8')) as MockPlatformOptions) : {};
  const options: MockPlatformOptions = {
    ...fromFile,
    host: values.host ?? fromFile.host,
    port: number('port', values.port) ?? fromFile.port ?? 4600,
    ...(values['api-key'] ? { apiKeys: values['api-key'] } : {}),
    ...(values['allowed-origin'] ? { allowedOrigins: values['allowed-origin'] } : {}),
    ...(values['session-ttl'] ? { sessionTtlMs: number('session-ttl', values['session-ttl']) } : {}),
    ...(values['max-external-users'] ? { maxExternalUsers: number('max-external-users', values['max-external-users']) } : {}),
    ...(values['no-creator-mode'] ? { useCreatorMode: false } : {}),
  };
  const platform = await startMockPlatform(options);
  process.stdout.write(
    `platform mock listening on ${platform.origin}\n` +
      `API key: ${platform.apiKey}  (send "Authorization: Api-Key ${platform.apiKey}" to ${platform.origin}/api/v1/embed/generate-session)\n` +
      `Dashboards: ${(options.dashboards ?? [{ publicId: 'sales-overview' }, { publicId: 'support-health' }]).map((d) => platform.url(`/embed/dashboard/${encodeURIComponent(d.publicId)}`)).join(' ')}\n`,
  );
  const stop = () => void platform.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`platform-mock: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
