import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// `pnpm demo` against a real tenant with a variable missing: said before anything is built (by
// the check its script runs first), not after the build. Free ports (0), so that nothing else on
// the machine decides the outcome.
const root = fileURLToPath(new URL('../..', import.meta.url));
const check = fileURLToPath(new URL('../../examples/shared/demoPorts.mjs', import.meta.url));
const ports = { MOCK_PORT: '0', HTML_PORT: '0', REACT_PORT: '0', VUE_PORT: '0', NEXT_PORT: '0' };
const run = (tenant: Record<string, string>) => {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('PLATFORM_')));
  return spawnSync(process.execPath, [check], { cwd: root, encoding: 'utf8', env: { ...env, ...ports, ...tenant } });
};

test('the check pnpm demo runs before building names the real tenant variables still missing', () => {
  const { status, stderr } = run({ PLATFORM_URL: 'https://acme.platform.example' });
  expect(status).toBe(1);
  expect(stderr).toContain('also set PLATFORM_API_KEY, PLATFORM_DEPLOYMENT_ID, PLATFORM_DASHBOARD_ID');
  expect(stderr).not.toMatch(/^\s+at /m);

  const demo = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).scripts.demo as string;
  expect(demo.indexOf('node examples/shared/demoPorts.mjs')).toBeGreaterThanOrEqual(0);
  expect(demo.indexOf('node examples/shared/demoPorts.mjs')).toBeLessThan(demo.indexOf('pnpm build'));
});

test('with every variable of the tenant, or none (the mock platform), the check passes', () => {
  expect(run({}).status).toBe(0);
  const tenant = {
    PLATFORM_URL: 'https://acme.platform.example',
    PLATFORM_API_KEY: 'k'.repeat(32),
    PLATFORM_DEPLOYMENT_ID: '1',
    PLATFORM_DASHBOARD_ID: 'sales',
  };
  expect(run(tenant).status).toBe(0);
});
