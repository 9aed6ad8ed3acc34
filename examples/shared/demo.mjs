// `pnpm demo`: starts the mock platform (or uses a real tenant) and the four demo hosts,
// each on its own origin, and prints their URLs. The Next.js host runs as in production:
// `pnpm build:examples` ran `next build`, and this starts `next start`.
//
// Real tenant: set PLATFORM_URL, PLATFORM_API_KEY, PLATFORM_DEPLOYMENT_ID and
// PLATFORM_DASHBOARD_ID (the published dashboard's public id).
// Ports: MOCK_PORT, HTML_PORT, REACT_PORT, VUE_PORT, NEXT_PORT (see demoPorts.mjs).
import { resolve } from 'node:path';
import { startMockPlatform } from '@platform-embed/mock';
import { checkDemoPorts, checkRealTenant, explainTakenPorts, readDemoPorts, usesRealTenant } from './demoPorts.mjs';
import { startNextHost } from '../next/server.mjs';
import { HOSTS, startHost } from './hostServer.mjs';

const root = resolve(import.meta.dirname, '../..');
const env = process.env;
const realTenant = usesRealTenant(env);

// Checked again here (pnpm demo checks before building): a port may have been taken meanwhile.
const portProblem = checkRealTenant(env) ?? (await checkDemoPorts(env, { realTenant }));
if (portProblem) {
  console.error(portProblem);
  process.exit(1);
}
const { ports: demoPorts } = readDemoPorts(env, { realTenant });
const ports = Object.fromEntries(demoPorts.map((entry) => [entry.name, entry.port]));

// Between the check and listening, another program can still take a port: say which, not a stack.
const listening = async (name, start) => {
  try {
    return await start();
  } catch (error) {
    if (error?.code !== 'EADDRINUSE') throw error;
    console.error(explainTakenPorts(demoPorts.filter((entry) => entry.name === name)));
    await Promise.all([...Object.values(hosts).map((h) => h.close()), mock?.close()]);
    process.exit(1);
  }
};

let platform;
let mock;
const hosts = {};
if (realTenant) {
  platform = {
    baseUrl: env.PLATFORM_URL,
    apiKey: env.PLATFORM_API_KEY,
    deploymentId: Number(env.PLATFORM_DEPLOYMENT_ID),
    publicId: env.PLATFORM_DASHBOARD_ID,
    mode: 'tenant',
  };
} else {
  // The hosts run on 127.0.0.1 and the platform on localhost: different origins and sites.
  mock = await listening('platform', () => startMockPlatform({ host: 'localhost', port: ports.platform }));
  platform = { baseUrl: mock.origin, apiKey: mock.apiKey, deploymentId: 1, publicId: 'sales-overview', mode: 'mock' };
}

for (const name of ['html', 'react', 'vue']) {
  hosts[name] = await listening(name, () => startHost({ name, platform, port: ports[name], mounts: HOSTS[name](root) }));
}
try {
  hosts.next = await listening('next', () => startNextHost({ platform, port: ports.next }));
} catch (error) {
  console.error(`The Next.js host did not start: ${error instanceof Error ? error.message : error}`);
  await Promise.all([...Object.values(hosts).map((h) => h.close()), mock?.close()]);
  process.exit(1);
}

console.log(`
platform-embed demo
  platform (${platform.mode === 'mock' ? 'mock' : 'real tenant'}): ${platform.baseUrl}
  script tag host:  ${hosts.html.origin}/
  React host:       ${hosts.react.origin}/
  Vue host:         ${hosts.vue.origin}/
  Next.js host:     ${hosts.next.origin}/
Press Ctrl+C to stop.`);

const stop = async () => {
  await Promise.all([...Object.values(hosts).map((h) => h.close()), mock?.close()]);
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
