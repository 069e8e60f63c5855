// The SHA-256 of each better-sqlite3 Electron build, as the main bundle carries
// them (inside the asar): electron.vite.config.ts defines the constant at build
// time from `npm run native:electron`'s cache. Unbuilt (tests), there are none.
declare const __SQLITE_ADDON_SHA256__: Readonly<Record<string, string>> | undefined;

export const BUILT_IN_ADDON_DIGESTS: Readonly<Record<string, string>> =
  typeof __SQLITE_ADDON_SHA256__ === 'undefined' ? {} : __SQLITE_ADDON_SHA256__;
