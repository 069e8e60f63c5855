// An update feed as electron-builder publishes it, for the update tests: the
// channel files (latest.yml, latest-mac.yml, latest-linux.yml) beside the
// installers they describe, with their real sha512 unless told otherwise, and
// each file's signature (latest.yml.sig, …) as `npm run sign:update-feed`
// writes it, by a test key the tests trust in place of the app's.
import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { SIGNATURE_SUFFIX, signatureFileOf } from '../../services/updates/update-signature';

export const RELEASE_DATE = '2026-11-20T09:30:00.000Z';

export function sha512(bytes: Buffer): string {
  return createHash('sha512').update(bytes).digest('base64');
}

function installer(name: string): Buffer {
  // Big enough to come in several chunks, so progress is reported.
  return Buffer.concat(Array.from({ length: 2000 }, (_, i) => Buffer.from(`${name} block ${i}\n`)));
}

interface Artifact {
  readonly name: string;
  readonly bytes: Buffer;
  /** What the feed claims; the file's own by default. */
  readonly sha512?: string;
}

/** A channel file as electron-builder writes it (files, then the legacy path/sha512 of the first). */
function channelFile(version: string, artifacts: readonly Artifact[]): string {
  const [first] = artifacts;
  if (first === undefined) throw new Error('a release has files');
  const claimed = (a: Artifact) => a.sha512 ?? sha512(a.bytes);
  const files = artifacts.map(
    (a) => `  - url: ${a.name}\n    sha512: ${claimed(a)}\n    size: ${a.bytes.length}\n`,
  );
  return [
    `version: ${version}\n`,
    'files:\n',
    ...files,
    `path: ${first.name}\n`,
    `sha512: ${claimed(first)}\n`,
    `releaseDate: '${RELEASE_DATE}'\n`,
  ].join('');
}

/** The key test feeds are signed with: pass `publicKey` as the updater's verifying key. */
export const FEED_TEST_KEYS = generateKeyPairSync('ed25519');

/** Adds a signature by `privateKey` beside every channel file of `files`, of the bytes it holds now. */
export function signFeed(
  files: Map<string, string | Buffer>,
  privateKey: KeyObject = FEED_TEST_KEYS.privateKey,
): Map<string, string | Buffer> {
  for (const [path, body] of [...files]) {
    if (path.endsWith('.yml'))
      files.set(`${path}${SIGNATURE_SUFFIX}`, signatureFileOf(Buffer.from(body), privateKey));
  }
  return files;
}

export function release(
  version: string,
  options: { debSha512?: string; signedWith?: KeyObject | null } = {},
): Map<string, string | Buffer> {
  const appImage = { name: `svc-desktop-${version}-linux-x86_64.AppImage`, bytes: installer('AppImage') };
  const deb = {
    name: `svc-desktop-${version}-linux-amd64.deb`,
    bytes: installer(`deb ${version}`),
    ...(options.debSha512 !== undefined ? { sha512: options.debSha512 } : {}),
  };
  const exe = { name: `svc-desktop-${version}-win-x64.exe`, bytes: installer('exe') };
  const zip = { name: `svc-desktop-${version}-mac-arm64.zip`, bytes: installer('zip') };
  const dmg = { name: `svc-desktop-${version}-mac-arm64.dmg`, bytes: installer('dmg') };
  const files = new Map<string, string | Buffer>([
    ['/latest-linux.yml', channelFile(version, [appImage, deb])],
    ['/latest.yml', channelFile(version, [exe])],
    ['/latest-mac.yml', channelFile(version, [zip, dmg])],
    ...[appImage, deb, exe, zip, dmg].map((a) => [`/${a.name}`, a.bytes] as const),
  ]);
  // null: a feed published without signatures.
  return options.signedWith === null ? files : signFeed(files, options.signedWith);
}
