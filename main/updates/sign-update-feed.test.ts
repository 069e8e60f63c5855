// The release's signing step on a folder as `npm run dist` leaves it: the
// signatures it writes are the ones the app's check (update-signature.ts, as
// signed-feed-provider.ts calls it) accepts, and it refuses to sign with a key
// the apps do not trust.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { FEED_TEST_KEYS, release } from '../../test/support/update-feed-files';
import { updateVerifyingKey, verifyChannelFile } from '../../services/updates/update-signature';
import { runSignUpdateFeed, SIGNING_KEY_VARIABLE } from './sign-update-feed';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sign-update-feed-'));
  // What electron-builder leaves in release/: the feed, and files of its own beside it.
  for (const [path, body] of release('0.3.0', { signedWith: null })) writeFileSync(join(dir, path), body);
  writeFileSync(join(dir, 'builder-debug.yml'), 'x: 1\n');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

const pemOf = (key: KeyObject) => String(key.export({ type: 'pkcs8', format: 'pem' }));

function run(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
  verifyingKey: KeyObject = FEED_TEST_KEYS.publicKey,
) {
  let stdout = '';
  let stderr = '';
  const code = runSignUpdateFeed(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    env,
    verifyingKey,
  });
  return { code, stdout, stderr };
}

const signatures = () =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.sig'))
    .sort();

test('signs every channel file, and nothing else, with signatures the app accepts', () => {
  const { code, stdout } = run(['--dir', dir], { [SIGNING_KEY_VARIABLE]: pemOf(FEED_TEST_KEYS.privateKey) });

  expect(code).toBe(0);
  expect(stdout).toContain('signed latest-linux.yml → latest-linux.yml.sig');
  expect(signatures()).toEqual(['latest-linux.yml.sig', 'latest-mac.yml.sig', 'latest.yml.sig']);
  for (const name of ['latest.yml', 'latest-mac.yml', 'latest-linux.yml']) {
    const bytes = readFileSync(join(dir, name));
    const signature = readFileSync(join(dir, `${name}.sig`), 'utf8');
    expect(() => verifyChannelFile(name, bytes, signature, FEED_TEST_KEYS.publicKey)).not.toThrow();
  }
});

test('reads the key from --key-file as well', () => {
  const keyFile = join(dir, 'release-key.pem');
  writeFileSync(keyFile, pemOf(FEED_TEST_KEYS.privateKey));
  expect(run(['--dir', dir, '--key-file', keyFile]).code).toBe(0);
  expect(signatures()).toHaveLength(3);
});

test('refuses a key the apps do not trust, and signs nothing', () => {
  const other = generateKeyPairSync('ed25519').privateKey;
  const { code, stderr } = run(['--dir', dir], { [SIGNING_KEY_VARIABLE]: pemOf(other) });
  expect(code).toBe(1);
  expect(stderr).toMatch(/this key is not the one built into the app/u);
  expect(signatures()).toEqual([]);
});

test("checks against the app's built-in key unless told otherwise", () => {
  const { code, stderr } = run(
    ['--dir', dir],
    { [SIGNING_KEY_VARIABLE]: pemOf(FEED_TEST_KEYS.privateKey) },
    updateVerifyingKey(),
  );
  expect(code).toBe(1);
  expect(stderr).toMatch(/not the one built into the app/u);
});

test('without a key, says how to give one', () => {
  const { code, stderr } = run(['--dir', dir]);
  expect(code).toBe(2);
  expect(stderr).toContain(`give --key-file or set ${SIGNING_KEY_VARIABLE}`);
  expect(signatures()).toEqual([]);
});

test('a folder without a feed is an error', () => {
  const empty = join(dir, 'empty');
  mkdirSync(empty);
  const { code, stderr } = run(['--dir', empty], {
    [SIGNING_KEY_VARIABLE]: pemOf(FEED_TEST_KEYS.privateKey),
  });
  expect(code).toBe(1);
  expect(stderr).toMatch(/no latest\*\.yml in/u);
});

test('--new-key writes a private key only its owner reads, never over another, and prints the public key that checks it', () => {
  const keyFile = join(dir, 'new-key.pem');
  const made = run(['--new-key', keyFile]);
  expect(made.code).toBe(0);
  if (process.platform !== 'win32') expect(statSync(keyFile).mode & 0o777).toBe(0o600);
  const publicPem = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----\n/u.exec(made.stdout)?.[0];
  expect(publicPem).toBeDefined();

  // Signing with the new key passes when the app trusts the printed public key.
  expect(run(['--dir', dir, '--key-file', keyFile], {}, updateVerifyingKey(publicPem)).code).toBe(0);

  const before = readFileSync(keyFile, 'utf8');
  expect(run(['--new-key', keyFile]).code).toBe(1);
  expect(readFileSync(keyFile, 'utf8')).toBe(before);
  expect(existsSync(keyFile)).toBe(true);
});
