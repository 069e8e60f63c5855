// The emulator in a process of its own (`emulator/cli.ts`, as `npm run emulator` runs it), for the
// benchmarks whose figures are the client's: seeding it, answering pages and collecting its heap
// (1.3 GB at a million tasks) then cost another thread than the one measured.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** What the emulator's first stdout line says (emulator/cli.ts), and how to stop it. */
export interface EmulatorProcess {
  base_url: string;
  org_id: string;
  admin_secret: string;
  tokens: { live: string };
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the emulator seeded with `tasks` (seed 42) on `port` (0: any free one); resolves once it listens. */
export async function startEmulatorProcess(options: {
  tasks: number;
  port?: number;
  /** More of emulator/cli.ts's options (`--rate-limit-live 1000000`). */
  args?: readonly string[];
}): Promise<EmulatorProcess> {
  const root = join(import.meta.dirname, '..', '..');
  const child = spawn(
    join(root, 'node_modules', '.bin', 'tsx'),
    [
      join(root, 'emulator', 'cli.ts'),
      '--port',
      String(options.port ?? 0),
      '--seed',
      '42',
      '--seed-tasks',
      String(options.tasks),
      ...(options.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout });
  const [firstLine] = (await once(lines, 'line')) as [string];
  const info = JSON.parse(firstLine) as Omit<EmulatorProcess, 'child' | 'stop'>;
  return {
    ...info,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
