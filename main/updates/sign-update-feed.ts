// `npm run sign:update-feed` (after `npm run dist`, before uploading release/):
// signs each channel file electron-builder wrote (latest.yml, latest-mac.yml,
// latest-linux.yml, …) into <name>.sig beside it, which installed apps check
// against their built-in key before they download anything
// (services/updates/signed-feed-provider.ts). `--new-key <file>` makes a key pair.
// A release tool run with tsx, not part of the app.
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import {
  SIGNATURE_SUFFIX,
  signatureFileOf,
  updateSigningKey,
  updateVerifyingKey,
  verifyChannelFile,
} from '../../services/updates/update-signature';

/** Where the private key comes from when `--key-file` is not given: its PEM text, set only where releases are signed. */
export const SIGNING_KEY_VARIABLE = 'SVC_UPDATE_SIGNING_KEY';

export interface SignFeedIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** The key the apps verify with: the built-in one (tests give their own). */
  readonly verifyingKey?: KeyObject;
}

const USAGE = `usage: npm run sign:update-feed -- [--dir release] [--key-file <private.pem>]
       npm run sign:update-feed -- --new-key <private.pem>
The private key comes from --key-file or ${SIGNING_KEY_VARIABLE} (its PEM text); never commit it.
`;

/** The channel files of a feed folder: what electron-updater reads, so what must be signed. */
export function channelFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^latest.*\.yml$/u.test(name))
    .sort();
}

/** The public key's bytes, of a public key or of the public half of a private one. */
const spki = (key: KeyObject) =>
  (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });

export function runSignUpdateFeed(argv: readonly string[], io: SignFeedIo): number {
  const say = (line: string) => io.stdout(`sign:update-feed: ${line}\n`);
  const fail = (line: string, code = 1) => {
    io.stderr(`sign:update-feed: ${line}\n`);
    return code;
  };
  let values: { dir: string; 'key-file'?: string; 'new-key'?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        dir: { type: 'string', default: 'release' },
        'key-file': { type: 'string' },
        'new-key': { type: 'string' },
      },
    }));
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`, 2);
  }

  if (values['new-key'] !== undefined) {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' });
    try {
      // 'wx': an existing key is never overwritten, since releases signed with it would be orphaned.
      writeFileSync(values['new-key'], pem, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      return fail(
        `cannot write ${values['new-key']}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    say(
      `private key written to ${values['new-key']}: keep it with whoever signs releases, out of the repository.`,
    );
    say('public key, for services/updates/update-signing-key.ts (read how to rotate there first):');
    io.stdout(String(publicKey.export({ type: 'spki', format: 'pem' })));
    return 0;
  }

  const keyFile = values['key-file'];
  const pem = io.env[SIGNING_KEY_VARIABLE];
  if (keyFile === undefined && (pem === undefined || pem.trim() === '')) {
    return fail(`no signing key: give --key-file or set ${SIGNING_KEY_VARIABLE}\n${USAGE}`, 2);
  }
  let privateKey: KeyObject;
  try {
    privateKey = updateSigningKey(keyFile !== undefined ? readFileSync(keyFile, 'utf8') : (pem ?? ''));
  } catch (error) {
    return fail(`the signing key was refused: ${error instanceof Error ? error.message : String(error)}`);
  }
  const verifyingKey = io.verifyingKey ?? updateVerifyingKey();
  // A feed signed with another key is one every installed app refuses: better not to publish it.
  if (!spki(verifyingKey).equals(spki(privateKey))) {
    return fail(
      'this key is not the one built into the app (services/updates/update-signing-key.ts): installed apps would refuse the feed',
    );
  }

  const dir = resolve(values.dir);
  let names: string[];
  try {
    names = channelFilesIn(dir);
  } catch (error) {
    return fail(`cannot read ${dir}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (names.length === 0) return fail(`no latest*.yml in ${dir}: run it after \`npm run dist\``);
  for (const name of names) {
    const bytes = readFileSync(join(dir, name));
    writeFileSync(join(dir, `${name}${SIGNATURE_SUFFIX}`), signatureFileOf(bytes, privateKey));
    // Read back and checked as the app checks it.
    verifyChannelFile(
      name,
      bytes,
      readFileSync(join(dir, `${name}${SIGNATURE_SUFFIX}`), 'utf8'),
      verifyingKey,
    );
    say(`signed ${name} → ${name}${SIGNATURE_SUFFIX}`);
  }
  say(`upload the .sig files with the channel files: an app refuses a channel file without its signature.`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = runSignUpdateFeed(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
  });
}
