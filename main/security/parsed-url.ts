// A URL from text the page or the network gave us, where text that is not one
// is simply refused (null) rather than an exception each check must catch.

/** `url` parsed, or null when it does not parse. (Node 20 has no `URL.parse`.) */
export function parsedUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
