// A local server that answers only requests meant for it. A page on any web
// site can make a browser send requests to 127.0.0.1; with DNS rebinding
// (evil.example resolving to 127.0.0.1) they even pass as same-origin, and a
// server that answers any `Host` gives the page its consent form and event
// stream. The demo's servers (the emulator inside the app and the browser
// demo's host) answer only their own address, and refuse a cross-site `Origin`.

/** The `Host` values a server listening on `port` of the loopback is reached by. */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/**
 * Which `Host` headers a server answers, and the origins it takes requests
 * from (`http://` and each of them). Empty: every request is refused.
 */
export class LoopbackHostGuard {
  private readonly hosts = new Set<string>();

  /** Answers requests for `host` ("127.0.0.1:5173"), and from its origin. */
  allow(...hosts: readonly string[]): void {
    for (const host of hosts) this.hosts.add(host.toLowerCase());
  }

  /**
   * Why a request with these headers is not answered, in words; null when it is.
   * A request without `Origin` (the server's own pages, Node clients) passes on `Host` alone.
   */
  refusal(host: string | undefined, origin: string | undefined): string | null {
    const allowed = [...this.hosts].join(' or ');
    if (host === undefined || !this.hosts.has(host.toLowerCase()))
      return `This server answers only requests for ${allowed}, not for '${host ?? ''}'.`;
    if (origin !== undefined && !this.hosts.has(hostOfOrigin(origin)))
      return `This server takes requests only from its own pages, not from '${origin}'.`;
    return null;
  }
}

/** `host:port` of an `http://` origin; '' for any other (`null`, `https://…`, `file://`). */
function hostOfOrigin(origin: string): string {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.origin === origin.toLowerCase() ? url.host : '';
  } catch {
    return '';
  }
}
