// The update feed's address, a setting (settings.json's `update_feed_url`):
// checked like the server addresses, https only, plain http only for a
// loopback address literal, since whoever serves the feed decides what runs.
import { isLoopbackHost, PLAIN_HTTP_RULE } from '../../sync/auth/auth-url';

export class UpdateFeedUrlError extends Error {
  override readonly name = 'UpdateFeedUrlError';
  constructor(readonly reason: string) {
    super(`The update feed address was refused: ${reason}.`);
  }
}

/** The feed URL to give electron-updater's generic provider; throws UpdateFeedUrlError saying why not. */
export function parseUpdateFeedUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new UpdateFeedUrlError('it is not a valid URL');
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) throw new UpdateFeedUrlError(`it must use https (${PLAIN_HTTP_RULE})`);
  } else if (url.protocol !== 'https:') {
    throw new UpdateFeedUrlError('it must use https');
  }
  if (url.username !== '' || url.password !== '') {
    throw new UpdateFeedUrlError('it must not contain a user name or password');
  }
  if (url.search !== '' || url.hash !== '')
    throw new UpdateFeedUrlError('it must not have a query or fragment');
  // The generic provider resolves latest.yml against it: without the slash, the last segment would be replaced.
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url;
}
