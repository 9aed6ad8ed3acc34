// `pnpm demo`: starts the mock platform (or uses a real tenant) and the three demo hosts,
// each on its own origin, and prints their URLs.
//
// Real tenant: set PLATFORM_BASE_URL, PLATFORM_API_KEY, PLATFORM_DEPLOYMENT_ID and
// PLATFORM_DASHBOARD_ID (the published dashboard's public id).
import { resolve } from 'node:path';
import { startMockPlatform } from '@platform-embed/mock';
import { HOSTS, startHost } from './hostServer.mjs';

const root = resolve(import.meta.dirname, '../..');
const env = process.env;
const ports = {
  platform: Number(env.MOCK_PORT ?? 4100),
  html: Number(env.HTML_PORT ?? 5171),
  react: Number(env.REACT_PORT ?? 5172),
  vue: Number(env.VUE_PORT ?? 5173),
};

let platform;
let mock;
if (env.PLATFORM_BASE_URL || env.PLATFORM_API_KEY) {
  const missing = ['PLATFORM_BASE_URL', 'PLATFORM_API_KEY', 'PLATFORM_DEPLOYMENT_ID', 'PLATFORM_DASHBOARD_ID'].filter((k) => !env[k]);
  if (missing.length) {
    console.error(`To run the demo against a real tenant, also set ${missing.join(', ')}.`);
    process.exit(1);
  }
  platform = {
    baseUrl: env.PLATFORM_BASE_URL,
    apiKey: env.PLATFORM_API_KEY,
    deploymentId: Number(env.PLATFORM_DEPLOYMENT_ID),
    publicId: env.PLATFORM_DASHBOARD_ID,
    mode: 'tenant',
  };
} else {
  // The hosts run on 127.0.0.1 and the platform on localhost: different origins and sites.
  mock = await startMockPlatform({ host: 'localhost', port: ports.platform });
  platform = { baseUrl: mock.origin, apiKey: mock.apiKey, deploymentId: 1, publicId: 'sales-overview', mode: 'mock' };
}

const hosts = {};
for (const name of ['html', 'react', 'vue']) {
  hosts[name] = await startHost({ name, platform, port: ports[name], mounts: HOSTS[name](root) });
}

console.log(`
platform-embed demo
  platform (${platform.mode === 'mock' ? 'mock' : 'real tenant'}): ${platform.baseUrl}
  script tag host:  ${hosts.html.origin}/
  React host:       ${hosts.react.origin}/
  Vue host:         ${hosts.vue.origin}/
Press Ctrl+C to stop.`);

const stop = async () => {
  await Promise.all([...Object.values(hosts).map((h) => h.close()), mock?.close()]);
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
