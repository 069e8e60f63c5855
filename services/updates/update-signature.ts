// Detached Ed25519 signatures of the update feed's channel files: release
// signs the exact bytes of each latest*.yml into <name>.sig beside it (base64,
// one line), and the app verifies them against its built-in public key before
// it reads a version, a file name or a sha512 from the feed.
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { UPDATE_SIGNING_PUBLIC_KEY } from './update-signing-key';

/** Where a channel file's signature is served: beside it, its name plus this. */
export const SIGNATURE_SUFFIX = '.sig';

/** The feed's signature is missing or does not verify: nothing of the feed is used. */
export class UpdateSignatureError extends Error {
  override readonly name = 'UpdateSignatureError';
  constructor(readonly detail: string) {
    super(`The update feed was refused: ${detail}.`);
  }
}

function ed25519(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`an update signing key is Ed25519, not ${key.asymmetricKeyType ?? key.type}`);
  }
  return key;
}

/** The public key updates are checked against: the built-in one unless given (tests, rotation). */
export function updateVerifyingKey(pem: string = UPDATE_SIGNING_PUBLIC_KEY): KeyObject {
  return ed25519(createPublicKey(pem));
}

export function updateSigningKey(pem: string): KeyObject {
  return ed25519(createPrivateKey(pem));
}

/** The text of `<channel file>.sig`. */
export function signatureFileOf(bytes: Buffer, privateKey: KeyObject): string {
  return `${sign(null, bytes, ed25519(privateKey)).toString('base64')}\n`;
}

// 64 bytes in base64: 86 characters and "==".
const SIGNATURE_TEXT = /^[A-Za-z0-9+/]{86}==$/u;

/**
 * Throws UpdateSignatureError unless `signatureFile` (null: the feed has none)
 * is `publicKey`'s signature of `bytes`, the channel file `name` as served.
 */
export function verifyChannelFile(
  name: string,
  bytes: Buffer,
  signatureFile: string | null,
  publicKey: KeyObject,
): void {
  if (signatureFile === null) throw new UpdateSignatureError(`${name}${SIGNATURE_SUFFIX} is missing`);
  const text = signatureFile.trim();
  if (!SIGNATURE_TEXT.test(text)) {
    throw new UpdateSignatureError(`${name}${SIGNATURE_SUFFIX} is not an Ed25519 signature`);
  }
  // A changed byte and another signer look the same to Ed25519: either way, not the app's publisher.
  if (!verify(null, bytes, ed25519(publicKey), Buffer.from(text, 'base64'))) {
    throw new UpdateSignatureError(`${name} is not signed with the app's update key`);
  }
}
