#!/usr/bin/env node
// The package's `bin`: runs the headless command (sync/cli/main.ts) through
// tsx's loader, scoped to that import, so no build step is needed to use it.
import { tsImport } from 'tsx/esm/api';

await tsImport('../sync/cli/main.ts', import.meta.url);
