// A worker thread from TypeScript source (development, tests, benchmarks, the
// headless command run from source): its `.ts` entry bundled into one ES module
// with esbuild, once per process and entry. Loading the entry through tsx's
// module hooks instead resolved and transpiled every file of its graph again
// in each worker, about 1.5 s of CPU per worker start: most of the CPU of a
// sync test, which starts a pull worker per sync. A built app never comes here:
// it passes its built worker file.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Esbuild from 'esbuild';

const bundled = new Map<string, URL>();

/**
 * The bundle of a `.ts` worker entry, as a file URL a Worker can start. It is
 * written under node_modules/.cache, so that the packages it leaves out
 * (better-sqlite3 and its addon, kysely, zod) resolve from node_modules; its
 * name carries a hash of its content, so processes at once (parallel test
 * files) share one file and an edited source gets a new one.
 */
export function bundledSourceWorker(entry: URL): URL {
  const known = bundled.get(entry.href);
  if (known) return known;
  const require = createRequire(import.meta.url);
  // Resolved from here only when a source entry is asked for: a built app does not ship esbuild.
  const esbuild = require('esbuild') as typeof Esbuild;
  const result = esbuild.buildSync({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]?.contents;
  if (code === undefined) throw new Error(`esbuild wrote nothing for ${entry.href}`);
  const nodeModules = dirname(dirname(require.resolve('esbuild/package.json')));
  const folder = join(nodeModules, '.cache', 'svc-desktop', 'workers');
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = join(folder, `${basename(fileURLToPath(entry), '.ts')}-${hash}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(folder, { recursive: true });
    // Written whole, then renamed into place: another process never starts a half-written file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  const url = pathToFileURL(file);
  bundled.set(entry.href, url);
  return url;
}
