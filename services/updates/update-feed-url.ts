// The update feed's address, a setting (settings.json's `update_feed_url`):
// checked like the server addresses, https only, plain http only for a
// loopback address literal, since whoever serves the feed decides what runs.
import { checkedServerUrl } from '../../sync/auth/auth-url';

export class UpdateFeedUrlError extends Error {
  override readonly name = 'UpdateFeedUrlError';
  constructor(readonly reason: string) {
    super(`The update feed address was refused: ${reason}.`);
  }
}

/** The feed URL to give electron-updater's generic provider; throws UpdateFeedUrlError saying why not. */
export function parseUpdateFeedUrl(raw: string): URL {
  const url = checkedServerUrl(raw, (reason) => new UpdateFeedUrlError(reason));
  // The generic provider resolves latest.yml against it: without the slash, the last segment would be replaced.
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url;
}
