// What `pnpm demo` checks before it builds anything (`node examples/shared/demoPorts.mjs`), so
// that a mistake is reported at once rather than after the build: the real tenant's variables,
// when one is set, and the ports, each chosen with an environment variable, free. demo.mjs checks
// again before it listens.
import { createServer } from 'node:net';
import { pathToFileURL } from 'node:url';

/** What listens where in the demo, and the environment variable that moves it. */
export const DEMO_PORTS = [
  { name: 'platform', label: 'the mock platform', variable: 'MOCK_PORT', defaultPort: 4100, host: 'localhost' },
  { name: 'html', label: 'the script tag host', variable: 'HTML_PORT', defaultPort: 5171, host: '127.0.0.1' },
  { name: 'react', label: 'the React host', variable: 'REACT_PORT', defaultPort: 5172, host: '127.0.0.1' },
  { name: 'vue', label: 'the Vue host', variable: 'VUE_PORT', defaultPort: 5173, host: '127.0.0.1' },
  { name: 'next', label: 'the Next.js host', variable: 'NEXT_PORT', defaultPort: 5174, host: '127.0.0.1' },
];

const HOW_TO_CHOOSE =
  'Choose other ports with environment variables (0 picks a free one), for example:\n' +
  '  MOCK_PORT=4200 HTML_PORT=5271 REACT_PORT=5272 VUE_PORT=5273 NEXT_PORT=5274 pnpm demo';

/**
 * The demo's ports from the environment, or a message saying which variable is not a port.
 * Against a real tenant (`realTenant`), the mock platform's port is not used.
 * @param {Record<string, string | undefined>} environment
 * @param {{ realTenant?: boolean }} [options]
 * @returns {{ ports: (typeof DEMO_PORTS[number] & { port: number })[] } | { problem: string }}
 */
export function readDemoPorts(environment, options = {}) {
  const ports = [];
  for (const entry of DEMO_PORTS) {
    if (options.realTenant && entry.name === 'platform') continue;
    const text = environment[entry.variable];
    const port = text === undefined || text === '' ? entry.defaultPort : Number(text);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      return { problem: `${entry.variable}=${text} is not a port: use a whole number from 0 to 65535 (0 picks a free port).` };
    ports.push({ ...entry, port });
  }
  return { ports };
}

/** Resolves whether `port` can be listened on at `host` right now (it listens and closes at once). */
export function isPortFree(port, host) {
  if (port === 0) return Promise.resolve(true);
  return new Promise((answer) => {
    const probe = createServer();
    probe.once('error', () => answer(false));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => answer(true)));
  });
}

/** The message for ports that are in use: which one, for what, and how to choose others. */
export function explainTakenPorts(taken) {
  const lines = taken.map(
    (entry) => `  port ${entry.port} on ${entry.host} (${entry.label}, ${entry.variable}) is already in use by another program`,
  );
  return `pnpm demo cannot start:\n${lines.join('\n')}\n${HOW_TO_CHOOSE}\nor stop the program that uses it (\`ss -ltnp\` or \`lsof -i :<port>\` shows which).`;
}

/**
 * Checks the demo's ports: answers null when all are free, else the message to print.
 * @param {Record<string, string | undefined>} environment
 * @param {{ realTenant?: boolean }} [options]
 */
export async function checkDemoPorts(environment, options = {}) {
  const read = readDemoPorts(environment, options);
  if ('problem' in read) return `pnpm demo cannot start: ${read.problem}\n${HOW_TO_CHOOSE}`;
  const taken = [];
  for (const entry of read.ports) if (!(await isPortFree(entry.port, entry.host))) taken.push(entry);
  return taken.length ? explainTakenPorts(taken) : null;
}

/** Whether the demo runs against a real tenant (see demo.mjs). */
export const usesRealTenant = (environment) => Boolean(environment.PLATFORM_URL || environment.PLATFORM_API_KEY);

/** The variables of a real tenant, all needed once one is set. */
export const TENANT_VARIABLES = ['PLATFORM_URL', 'PLATFORM_API_KEY', 'PLATFORM_DEPLOYMENT_ID', 'PLATFORM_DASHBOARD_ID'];

/**
 * Against a real tenant, the message naming the variables still missing; null when all are set,
 * or when the demo runs against the mock platform.
 * @param {Record<string, string | undefined>} environment
 */
export function checkRealTenant(environment) {
  if (!usesRealTenant(environment)) return null;
  const missing = TENANT_VARIABLES.filter((name) => !environment[name]);
  if (!missing.length) return null;
  return (
    `pnpm demo cannot start: to run the demo against a real tenant, also set ${missing.join(', ')}.\n` +
    `  ${TENANT_VARIABLES.join(', ')}: the tenant's base URL, an API key, the deployment id and the published dashboard's public id.\n` +
    'Without PLATFORM_URL and PLATFORM_API_KEY, the demo runs against the mock platform.'
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problem = checkRealTenant(process.env) ?? (await checkDemoPorts(process.env, { realTenant: usesRealTenant(process.env) }));
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
}
