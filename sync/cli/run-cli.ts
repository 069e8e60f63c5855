// The headless command's dispatcher: picks the subcommand, and turns every
// failure into one message that says what to do and the documented exit code.
import {
  InvalidEditError,
  MirrorStorageError,
  MirrorVersionError,
  NotInMirrorError,
} from '../../db/mirror-errors';
import { ApiError, NetworkError, ProblemError, SignedOutError } from '../api/errors';
import { SessionEndedError, SignInServerUnreachableError } from '../auth/api-credentials';
import { EXIT, type ExitCode, USAGE, UsageError } from './cli-usage';
import { attachmentCommand } from './attachment-command';
import type { CliIo } from './cli-io';
import { COLLECTION_COMMAND_SPECS, collectionCommand } from './collection-command';
import { commentCommand, sectionCommand } from './comment-command';
import {
  conflictsCommand,
  createCommand,
  deleteCommand,
  dropCommand,
  editCommand,
  exportCommand,
  outboxCommand,
  resolveCommand,
  retryCommand,
} from './mirror-commands';
import { runLogin } from './login-command';
import { SetValueError } from './set-values';
import { syncCommand } from './sync-command';
import { viewCommand } from './view-command';

type Command = (args: readonly string[], io: CliIo) => Promise<ExitCode>;

const COMMANDS: Readonly<Record<string, Command>> = {
  sync: syncCommand,
  login: runLogin,
  export: exportCommand,
  edit: editCommand,
  create: createCommand,
  delete: deleteCommand,
  outbox: outboxCommand,
  conflicts: conflictsCommand,
  resolve: resolveCommand,
  retry: retryCommand,
  drop: dropCommand,
  comment: commentCommand,
  section: sectionCommand,
  ...Object.fromEntries(
    [...COLLECTION_COMMAND_SPECS].map(([noun, spec]) => [
      noun,
      noun === 'view'
        ? viewCommand(spec)
        : noun === 'attachment'
          ? attachmentCommand(spec)
          : collectionCommand(spec),
    ]),
  ),
};

export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const [name, ...args] = argv;
  if (name === undefined) {
    io.stderr(`${USAGE}\n`);
    return EXIT.usage;
  }
  if (name === 'help' || name === '--help' || name === '-h') {
    io.stderr(`${USAGE}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(
      `unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(', ')} (run with --help for usage)\n`,
    );
    return EXIT.usage;
  }
  if (args.includes('--help') || args.includes('-h')) {
    io.stderr(`${USAGE}\n`);
    return EXIT.ok;
  }
  try {
    return await command(args, io);
  } catch (error) {
    const { code, message } = explain(error);
    io.stderr(`${message}\n`);
    return code;
  }
}

/** Every failure as an exit code and a message that says what to do next. */
export function explain(error: unknown): { code: ExitCode; message: string } {
  if (error instanceof UsageError || error instanceof SetValueError) {
    return { code: EXIT.usage, message: `${error.message} (run with --help for usage)` };
  }
  if (error instanceof InvalidEditError) {
    return { code: EXIT.usage, message: `${error.message}; change that --set value` };
  }
  if (error instanceof NotInMirrorError) {
    const where =
      error.kind === 'task'
        ? 'list the tasks with: export --db FILE'
        : error.kind === 'conflict'
          ? 'list the open ones with: conflicts --db FILE'
          : 'list them with: outbox --db FILE';
    return { code: EXIT.usage, message: `${error.message}; ${where}` };
  }
  if (error instanceof SessionEndedError) {
    // A sign-in kept by login: its message says to sign in again, not to get a token.
    return { code: EXIT.signedOut, message: error.message };
  }
  if (error instanceof SignedOutError) {
    return {
      code: EXIT.signedOut,
      message: `signed out: the service refused the token (${error.reason}); get a new token and pass it with --token or SVC_TOKEN, or if you signed in with login, sign in again with: login --db FILE`,
    };
  }
  if (error instanceof SignInServerUnreachableError) {
    return {
      code: EXIT.failed,
      message: `cannot renew the sign-in: ${error.status === null ? `the sign-in server ${error.authUrl} could not be reached` : `the sign-in server ${error.authUrl} answered ${error.status}`} (${error.code}); check the network and that address (login --auth-url), then sync again (queued edits are kept)`,
    };
  }
  if (error instanceof NetworkError) {
    return {
      code: EXIT.failed,
      message: `cannot reach the service (${error.code}); check --base-url and the network, then sync again (queued edits are kept)`,
    };
  }
  if (error instanceof ProblemError) {
    return {
      code: EXIT.failed,
      message: `the service answered ${error.status} ${error.type} to ${error.operation}${error.detail ? `: ${error.detail}` : ''}; sync again later (queued edits are kept)`,
    };
  }
  if (error instanceof ApiError) {
    return { code: EXIT.failed, message: `${error.message}; sync again later (queued edits are kept)` };
  }
  if (error instanceof MirrorStorageError || error instanceof MirrorVersionError) {
    return { code: EXIT.failed, message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  return {
    code: EXIT.failed,
    message: `unexpected failure: ${message}; please report it with the command you ran`,
  };
}
