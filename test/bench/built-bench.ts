// A benchmark that measures memory runs as the app runs its code: built into
// one JavaScript file (Vite, as electron-vite builds out/main) and run by
// plain node, not through tsx, whose loader and transpiled sources are ~60 MB
// of the process's RSS that the app does not have (measured: loading the sync
// engine through tsx, RSS 140 MB; the same modules built, 79 MB).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..', '..');

/** True when this module runs from its TypeScript source (through tsx), false when built. */
export function runsFromSource(moduleUrl: string): boolean {
  return moduleUrl.endsWith('.ts');
}

/**
 * Builds the benchmark module `moduleUrl` (a .ts under test/bench/) into
 * out/bench/ (two folders below the repository, as test/bench/ is, so its
 * paths from import.meta.dirname still hold), runs it with node and the same
 * arguments, and resolves to its exit code; the built file is removed after.
 */
export async function runBuilt(moduleUrl: string, args: readonly string[]): Promise<number> {
  const entry = fileURLToPath(moduleUrl);
  const outDir = join(root, 'out', 'bench');
  // One file per run: several people may run benchmarks at once.
  const fileName = `${entry.split('/').pop()?.replace(/\.ts$/, '') ?? 'bench'}-${process.pid}.mjs`;
  // Loaded here, not at the top: the built benchmark imports this module too, and must not load Vite.
  const { build } = await import('vite');
  await build({
    configFile: false,
    root,
    logLevel: 'warn',
    build: {
      ssr: entry,
      outDir,
      emptyOutDir: false,
      target: 'node20',
      minify: false,
      rollupOptions: { output: { format: 'es', entryFileNames: fileName } },
    },
  });
  const file = join(outDir, fileName);
  try {
    const child = spawn(process.execPath, [file, ...args], { stdio: 'inherit' });
    const [code] = (await once(child, 'exit')) as [number | null];
    return code ?? 1;
  } finally {
    await rm(file, { force: true });
  }
}
