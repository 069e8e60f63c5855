// The public half of the key the update feed is signed with (Ed25519, SPKI PEM).
// The app downloads an update only when the feed's latest*.yml verifies against
// it (signed-feed-provider.ts), so whoever holds the private half decides what
// installs, not whoever serves the feed.
//
// This key was made when signing was introduced and its private half was not
// kept: the release owner replaces it with the project's own before the first
// release that carries this check. Until then an installed app refuses every
// update, which is the safe way to be wrong.
//
// To set or rotate it (docs/building.md, "Updates"):
//  1. `npm run sign:update-feed -- --new-key <file>` writes a new private key to
//     <file> (mode 0600) and prints its public key; <file> stays out of the
//     repository, with whoever signs releases.
//  2. Paste the public key below. To rotate, sign the release carrying it with
//     the OLD key: installed apps trust only the old one until they run it.
//  3. Sign every later release with the new key.
export const UPDATE_SIGNING_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAQ6zMtSeJHg8cC6q0OF1hlQTkzhKzPwW8xu/hMopTksE=
-----END PUBLIC KEY-----
`;
