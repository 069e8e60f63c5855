// Keeps tokens out of messages: anything that came from a server or a store is
// passed through here before it can reach an error, a log line or a page.

/**
 * Token-shaped strings: access tokens under the current and the earlier prefix,
 * and refresh tokens as the emulator mints them (`svcr_`; the contract does not
 * give their form, so known secrets are also redacted by value).
 */
const TOKEN_PATTERN = /\b(?:(?:svc|tsk)_(?:live|test)_|svcr_)[A-Za-z0-9_-]+/g;

export const REDACTED = '[redacted]';

/** `text` with every known secret and every token-shaped string replaced by `[redacted]`. */
export function redactSecrets(text: string, knownSecrets: readonly string[] = []): string {
  let redacted = text;
  for (const secret of knownSecrets) {
    // Short values would blank out ordinary words; real secrets are long.
    if (secret.length >= 8) redacted = redacted.split(secret).join(REDACTED);
  }
  return redacted.replace(TOKEN_PATTERN, REDACTED);
}
