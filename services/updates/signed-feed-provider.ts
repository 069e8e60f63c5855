// electron-updater's generic feed, but a channel file (latest.yml,
// latest-mac.yml, latest-linux.yml) is read only once its detached signature
// (update-signature.ts) verifies. The check sits where electron-updater fetches
// the file, so the bytes verified are the very bytes it parses: its version,
// file names and sha512 (which the download is checked against) all come from
// signed text, and nothing is downloaded before. The signature is fetched from
// the same feed; another server or a changed byte cannot produce it.
import type { OutgoingHttpHeaders } from 'node:http';
import type { KeyObject } from 'node:crypto';
import type { AppUpdater, CancellationToken } from 'electron-updater';
// Not in electron-updater's index; it has no exports map, so its files are its API too.
import { GenericProvider } from 'electron-updater/out/providers/GenericProvider.js';
import { SIGNATURE_SUFFIX, verifyChannelFile } from './update-signature';

/** What `AppUpdater.setFeedURL` takes: here, always a custom provider. */
export type FeedConfiguration = Exclude<Parameters<AppUpdater['setFeedURL']>[0], string>;
type RuntimeOptions = ConstructorParameters<typeof GenericProvider>[2];

export interface SignedFeed {
  /** The feed's folder, as electron-builder.yml's `publish.url` (with its trailing slash). */
  readonly url: string;
  /** The packaged config's channel, if any (electron-updater's own `channel` wins, as for a generic feed). */
  readonly channel?: string | null;
}

const isNotFound = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { statusCode?: unknown }).statusCode === 404;

/** The configuration for `updater.setFeedURL`: `feed` read as a generic feed whose channel files `publicKey` signed. */
export function signedFeedConfiguration(feed: SignedFeed, publicKey: KeyObject): FeedConfiguration {
  class SignedFeedProvider extends GenericProvider {
    constructor(_custom: unknown, updater: AppUpdater, runtimeOptions: RuntimeOptions) {
      super({ provider: 'generic', url: feed.url, channel: feed.channel ?? null }, updater, runtimeOptions);
    }

    // A generic feed reads nothing else as text: the installers and their blockmaps come
    // through the download, checked against the sha512 this text carries.
    protected override async httpRequest(
      url: URL,
      headers?: OutgoingHttpHeaders | null,
      cancellationToken?: CancellationToken,
    ): Promise<string | null> {
      const text = await super.httpRequest(url, headers, cancellationToken);
      const signatureUrl = new URL(url.href);
      signatureUrl.pathname = `${signatureUrl.pathname}${SIGNATURE_SUFFIX}`;
      let signature: string | null;
      try {
        signature = await super.httpRequest(signatureUrl, headers, cancellationToken);
      } catch (error) {
        // The provider would report a 404 as the channel file missing: here it is the signature.
        if (!isNotFound(error)) throw error;
        signature = null;
      }
      const name = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
      // The text arrives decoded as UTF-8; encoded again it is the bytes served, unless they
      // were not UTF-8, and then they were not what was signed either.
      verifyChannelFile(name, Buffer.from(text ?? '', 'utf8'), signature, publicKey);
      return text;
    }
  }
  return { provider: 'custom', url: feed.url, updateProvider: SignedFeedProvider };
}
