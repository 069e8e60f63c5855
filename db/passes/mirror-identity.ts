// Whose mirror this is: the account it belongs to (one file per signed-in
// account) and the last `/v1/me` answer with its ETag, kept in the meta table.
import type { Database, Statement } from 'better-sqlite3';
import type { MirrorTransactions } from '../mirror-transactions';
import type { AccountIdentity } from '../tasks/task-overlay';

/** The caller's identity as `/v1/me` last answered it, with the answer's ETag. */
export interface RememberedIdentity {
  etag: string;
  me: { user_id: string; username: string; org_id: string | null };
}

const UPSERT_META =
  'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value';

export class MirrorIdentity {
  /** Read on every local task write (the rows of new tasks name their maker): cached per data version. */
  private accountCache: { version: string; account: AccountIdentity } | null = null;
  /** Prepared once: inside a write the version moves with every row, and a bulk change reads it per task. */
  private selectAccount: Statement<[], { key: string; value: string }> | null = null;

  constructor(
    private readonly db: Database,
    private readonly tx: MirrorTransactions,
  ) {}

  /** The organization and username this mirror belongs to (null until set). */
  account(): AccountIdentity {
    const version = this.tx.read(() => this.tx.version());
    if (this.accountCache === null || this.accountCache.version !== version) {
      this.selectAccount ??= this.db.prepare(
        "SELECT key, value FROM meta WHERE key IN ('org_id', 'username')",
      );
      const select = this.selectAccount;
      const rows = this.tx.read(() => select.all());
      const get = (key: string) => rows.find((r) => r.key === key)?.value ?? null;
      this.accountCache = { version, account: { orgId: get('org_id'), username: get('username') } };
    }
    return this.accountCache.account;
  }

  /** Records who this mirror belongs to. */
  setAccount(account: { orgId: string; username: string }): void {
    this.tx.write(() => {
      const upsert = this.db.prepare(UPSERT_META);
      upsert.run('org_id', account.orgId);
      upsert.run('username', account.username);
    });
    this.accountCache = null;
  }

  /**
   * The last `/v1/me` answer and its ETag, so that a later process (the headless
   * command runs one per sync) revalidates it with `If-None-Match` instead of
   * reading it again; null until one was kept.
   */
  remembered(): RememberedIdentity | null {
    const rows = this.tx.read(
      () =>
        this.db.prepare("SELECT key, value FROM meta WHERE key IN ('me_etag', 'me_body')").all() as {
          key: string;
          value: string;
        }[],
    );
    const etag = rows.find((r) => r.key === 'me_etag')?.value;
    const body = rows.find((r) => r.key === 'me_body')?.value;
    if (etag === undefined || body === undefined) return null;
    try {
      return { etag, me: JSON.parse(body) as RememberedIdentity['me'] };
    } catch {
      return null;
    }
  }

  /** Keeps the `/v1/me` answer and its ETag (see remembered). */
  remember(identity: RememberedIdentity): void {
    this.tx.write(() => {
      const upsert = this.db.prepare(UPSERT_META);
      upsert.run('me_etag', identity.etag);
      upsert.run('me_body', JSON.stringify(identity.me));
    });
  }
}
