#!/usr/bin/env node
// The package's `bin`: the headless command as built by `npm run build`
// (build/build-cli.js, out/cli/). From a checkout without a build, run it
// from source instead: `npm run cli -- …`.
import { existsSync } from 'node:fs';

const built = new URL('../out/cli/svc-desktop.mjs', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(
    'svc-desktop: the headless command is not built; run `npm run build` first, or `npm run cli -- …` from source\n',
  );
  process.exit(2);
}
await import(built.href);
