// Test support: plays the system browser in sign-in tests. It opens the
// authorize URL over real HTTP, answers the emulator's consent form like a
// person would (Approve or Deny), and follows the redirect to the app's
// loopback listener. Its `openUrl` returns at once, as shell.openExternal does.
import { request } from 'undici';

export interface Page {
  url: string;
  status: number;
  location: string | undefined;
  body: string;
}

export type Decision = 'approve' | 'deny';

export interface ConsentBrowserScript {
  /** What the person clicks on the consent page; default approve. */
  decision?: Decision;
  /** Runs when the server redirects to the app, before the browser follows; may change the URL it follows. */
  beforeCallback?(callbackUrl: URL): void | Promise<void | URL>;
  /** Runs first, with the authorize URL (stray requests to the listener, and the like). */
  beforeAuthorize?(authorizeUrl: URL): void | Promise<void>;
}

export interface ConsentBrowser {
  openUrl: (url: string) => void;
  /** URLs passed to openUrl, in order. */
  readonly opened: string[];
  /** Every page visited by the last browse, in order. */
  readonly visited: Page[];
  /** Settles when the last browse has ended: with the page the loopback listener answered. */
  readonly finished: Promise<Page>;
}

export async function visit(
  url: string,
  init: { method?: 'GET' | 'POST'; form?: URLSearchParams } = {},
): Promise<Page> {
  const response = await request(url, {
    method: init.method ?? 'GET',
    ...(init.form
      ? { body: init.form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
      : {}),
  });
  const location = response.headers.location;
  return {
    url,
    status: response.statusCode,
    location: typeof location === 'string' ? location : undefined,
    body: await response.body.text(),
  };
}

export function consentBrowser(script: ConsentBrowserScript = {}): ConsentBrowser {
  return recordingBrowser(async (start, visited) => {
    await script.beforeAuthorize?.(new URL(start));
    let page = await visit(start);
    visited.push(page);
    if (page.status === 200) {
      const form = consentForm(page.body);
      const fields = new URLSearchParams(form.fields);
      fields.set('decision', script.decision ?? 'approve');
      page = await visit(new URL(form.action, page.url).href, { method: 'POST', form: fields });
      visited.push(page);
    }
    if (page.status !== 302 || page.location === undefined) {
      throw new Error(`the sign-in server did not redirect back to the app (status ${page.status})`);
    }
    let callback = new URL(page.location, page.url);
    callback = (await script.beforeCallback?.(callback)) ?? callback;
    const landing = await visit(callback.href);
    visited.push(landing);
    return landing;
  });
}

/**
 * A stand-in for the system browser that records the URLs it was opened with
 * and the pages of its last browse; `browse` plays one browse from a URL,
 * pushing each page it visits onto `visited` (emptied first).
 */
export function recordingBrowser(browse: (start: string, visited: Page[]) => Promise<Page>): ConsentBrowser {
  const opened: string[] = [];
  const visited: Page[] = [];
  let finished: Promise<Page> = Promise.reject(new Error('openUrl was never called'));
  finished.catch(() => undefined);
  return {
    opened,
    visited,
    get finished() {
      return finished;
    },
    openUrl(url: string) {
      opened.push(url);
      visited.length = 0;
      finished = browse(url, visited);
      finished.catch(() => undefined);
    },
  };
}

/** The consent page's form: its action, hidden fields and ticked boxes (the emulator's page; a real one would be richer). */
export function consentForm(html: string): { action: string; fields: [string, string][] } {
  for (const form of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const attributes = form[1] ?? '';
    if (!/\bmethod="post"/i.test(attributes)) continue;
    const fields: [string, string][] = [];
    for (const input of (form[2] ?? '').matchAll(/<input\b[^>]*>/gi)) {
      const name = /\bname="([^"]*)"/.exec(input[0])?.[1];
      const value = /\bvalue="([^"]*)"/.exec(input[0])?.[1] ?? '';
      // Hidden fields and ticked boxes (the scopes granted), as a browser submits them.
      const sent = /\btype="hidden"/i.test(input[0]) || /\btype="checkbox"[^>]*\bchecked\b/i.test(input[0]);
      if (name !== undefined && sent) fields.push([decode(name), decode(value)]);
    }
    return { action: decode(/\baction="([^"]*)"/.exec(attributes)?.[1] ?? ''), fields };
  }
  throw new Error('the consent page has no POST form');
}

function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
