#!/usr/bin/env node
// The `platform-mock` command. This file is plain JavaScript committed with the package, so a
// package manager can link the command when it installs the package, even in the repository
// before anything is built; the command itself is the built dist/cli.mjs.
import { existsSync } from 'node:fs';

const builtCli = new URL('../dist/cli.mjs', import.meta.url);
if (!existsSync(builtCli)) {
  process.stderr.write(
    'platform-mock: the package is not built (dist/cli.mjs is missing). In the platform-embed repository, run `pnpm build` first.\n',
  );
  process.exit(1);
}
await import(builtCli.href);
