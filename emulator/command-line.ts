// The command line of the repo's scripts (the emulator, the soak run): options
// parsed by node:util, `--help` answered with the usage, and a usage error
// said with the usage and exit code 2.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']> & { help: { type: 'boolean' } };

/** The options given, once `--help` and anything unknown have been answered (the process ends then). */
export function commandLine<const O extends Options>(options: O, usage: string) {
  let values;
  try {
    ({ values } = parseArgs({ options }));
  } catch (error) {
    usageError((error as Error).message, usage);
  }
  // Every script's options have --help (the Options type asks for it).
  if ((values as { help?: boolean }).help === true) {
    process.stderr.write(`${usage}\n`);
    process.exit(0);
  }
  return values;
}

/** Says what was wrong with the command line, then the usage, and exits 2. */
export function usageError(message: string, usage: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}
