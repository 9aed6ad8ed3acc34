// Debian's Chromium for Playwright (it cannot download its own browsers here), shared by the
// end-to-end tests and the benchmarks.
import { execSync } from 'node:child_process';

/** The Chromium executable: `CHROMIUM_PATH`, else `chromium` (or `chromium-browser`) on the PATH. */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  try {
    return execSync('command -v chromium || command -v chromium-browser', { encoding: 'utf8', shell: '/bin/bash' }).trim();
  } catch {
    throw new Error('Chromium not found: run `npm run setup` (installs Debian chromium) or set CHROMIUM_PATH.');
  }
}

/** Flags for headless runs as root on a machine without a GPU or an open network. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
