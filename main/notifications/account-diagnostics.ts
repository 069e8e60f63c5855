// The text "copy diagnostics" gives support: the account's log with the app's
// facts on top, and the names of the person and their organization's members
// replaced by stand-ins (sync/sync-log/diagnostics-report.ts does the hiding).
import { diagnosticsReport } from '../../sync/sync-log/diagnostics-report';
import type { WatchedAccount } from './watched-account';

export interface DiagnosticsFacts {
  /** Version, platform…: the app's facts for the header. */
  appContext: Readonly<Record<string, string | number | boolean | null>>;
  paused: boolean;
  /** The tray's first line as the person sees it, when there is one. */
  trayHeadline: string | null;
  generatedAt: string;
}

export function accountDiagnostics(watched: WatchedAccount, facts: DiagnosticsFacts): string {
  const { runtime, log } = watched;
  const identity = runtime.record.identity;
  const people = [identity.username, identity.user_id, identity.email ?? ''];
  for (const member of runtime.mirror.collections.list('organization_members')) {
    for (const key of ['username', 'email', 'user_id', 'display_name', 'name']) {
      const value = member[key];
      if (typeof value === 'string') people.push(value);
    }
  }
  const status = runtime.status;
  return diagnosticsReport({
    entries: log.query({ limit: 1000 }).entries,
    context: {
      ...facts.appContext,
      account: identity.username,
      base_url: runtime.record.base_url,
      state: status.state,
      queued_edits: status.queued_edits,
      paused: facts.paused,
      tray: facts.trayHeadline,
    },
    people,
    secrets: watched.secrets(),
    salt: log.salt,
    generatedAt: facts.generatedAt,
  });
}
