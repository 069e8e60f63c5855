// electron-updater's failures sorted into the reasons the person is told: its
// errors carry builder-util-runtime codes (ERR_UPDATER_*, ERR_CHECKSUM_MISMATCH),
// Node's or Chromium's network codes, or an HTTP status.
import type { UpdateFailureReason } from './update-policy';
import { UpdateSignatureError } from './update-signature';

export interface UpdateFailure {
  readonly reason: UpdateFailureReason;
  /** One short line: electron-updater's messages carry stacks and whole feed files. */
  readonly message: string;
}

const MALFORMED_FEED_CODES = new Set([
  'ERR_UPDATER_INVALID_UPDATE_INFO',
  'ERR_UPDATER_NO_FILES_PROVIDED',
  'ERR_UPDATER_NO_CHECKSUM',
  'ERR_UPDATER_INVALID_VERSION',
]);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const MESSAGE_MAX = 200;

function oneLine(text: string): string {
  const first = text.split('\n', 1)[0]?.trim() ?? '';
  return first.length > MESSAGE_MAX ? `${first.slice(0, MESSAGE_MAX - 1)}…` : first;
}

function codeOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : null;
}

function statusOf(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : null;
}

export function classifyUpdateError(error: unknown): UpdateFailure {
  const text = error instanceof Error ? error.message : String(error);
  // Retried like any failure: a feed mid-upload, or a network that meddled for a while, gets another look.
  if (error instanceof UpdateSignatureError)
    return { reason: 'unsigned-feed', message: oneLine(error.detail) };
  const code = codeOf(error);
  if (code === 'ERR_CHECKSUM_MISMATCH') return { reason: 'checksum-mismatch', message: oneLine(text) };
  if (code !== null && MALFORMED_FEED_CODES.has(code)) {
    // "Cannot parse update info from latest.yml in the latest release artifacts (url): <stack>, rawData: …"
    return {
      reason: 'malformed-feed',
      message: oneLine(text.replace(/:\s*(YAMLException|Error)[\s\S]*$/u, '')),
    };
  }
  if (code === 'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND') {
    return {
      reason: 'unreachable',
      message: oneLine(text.replace(/ update info:[\s\S]*$/u, ' on the server')),
    };
  }
  const cause = (error as { cause?: unknown } | null)?.cause;
  const networkCode = code ?? codeOf(cause);
  if (networkCode !== null && NETWORK_CODES.has(networkCode))
    return { reason: 'unreachable', message: oneLine(text) };
  // Electron's net module reports network failures as Chromium error names.
  if (/net::ERR_[A-Z_]+/u.test(text)) return { reason: 'unreachable', message: oneLine(text) };
  const status = statusOf(error);
  if (status !== null && (status >= 500 || status === 404 || status === 408 || status === 429)) {
    return { reason: 'unreachable', message: `the update server answered ${status}` };
  }
  return { reason: 'failed', message: oneLine(text) };
}
