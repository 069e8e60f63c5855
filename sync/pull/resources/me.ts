// `GET /v1/me`: who the token acts as and for which organization. Not a list:
// read under its ETag (kept with the mirror, so a new process revalidates it
// too; one request per full pull) and written to the mirror as the account the
// file belongs to.
import { InvalidResponseError } from '../../api/errors';
import { meOperations, organizationOperations } from '../../api/operations';
import { emptyResult, type PullContext, type PulledResource, type ResourcePullResult } from '../pull-context';

const ME_ETAG = 'me.etag';
const ME_BODY = 'me.body';
/** Set by readMeAhead: whether that read was a 304, until the next full pull's `me` takes it. */
const ME_AHEAD = 'me.ahead';

export interface MeFields {
  user_id: string;
  username: string;
  org_id: string | null;
}

/** The answer of `/v1/me` read earlier by this engine, if any (no request). */
export function rememberedMe(memo: ReadonlyMap<string, unknown>): MeFields | null {
  return (memo.get(ME_BODY) as MeFields | undefined) ?? null;
}

type MeContext = Pick<PullContext, 'api' | 'memo' | 'lane' | 'signal' | 'store' | 'onResourceSkipped'>;

/**
 * Reads `/v1/me` (304 reuses the remembered answer) and decides the
 * organization. An answer that breaks the contract leaves the remembered
 * identity standing, said as a skipped resource: thrown, it failed every
 * resource after it (they need the organization), so one broken answer
 * stopped the whole sync. With none remembered there is no organization to
 * pull, and the InvalidResponseError (naming me.get) is the sync's failure.
 */
export async function readMe(ctx: MeContext): Promise<MeFields & { notModified: boolean }> {
  if (!ctx.memo.has(ME_ETAG)) {
    const kept = await ctx.store.rememberedIdentity();
    if (kept !== null) {
      ctx.memo.set(ME_ETAG, kept.etag);
      ctx.memo.set(ME_BODY, kept.me);
    }
  }
  const etag = ctx.memo.get(ME_ETAG);
  let answer;
  try {
    answer = await ctx.api.read(
      meOperations.get,
      {},
      { ifNoneMatch: typeof etag === 'string' ? etag : null, signal: ctx.signal, lane: ctx.lane },
    );
  } catch (error) {
    const kept = rememberedMe(ctx.memo);
    if (!(error instanceof InvalidResponseError) || kept === null) throw error;
    ctx.onResourceSkipped({ collection: 'me', scope: '', error });
    return { ...kept, notModified: true };
  }
  if (answer.status === 304) {
    const body = ctx.memo.get(ME_BODY) as MeFields | undefined;
    if (body) return { ...body, notModified: true };
    // A 304 to a validator we hold no answer for: read it again, unconditionally.
    ctx.memo.set(ME_ETAG, null);
    return readMe(ctx);
  }
  let orgId = answer.body.org_id ?? null;
  if (orgId === null) {
    // The contract assumes org_id in /v1/me; without it, the token's organization is the one listed.
    const orgs = await ctx.api.listPage(
      organizationOperations.list,
      {},
      { limit: 2 },
      { signal: ctx.signal, lane: ctx.lane },
    );
    if (orgs.status === 200 && orgs.body.data.length === 1) orgId = orgs.body.data[0]?.org_id ?? null;
  }
  const fields: MeFields = { user_id: answer.body.user_id, username: answer.body.username, org_id: orgId };
  ctx.memo.set(ME_ETAG, answer.etag);
  ctx.memo.set(ME_BODY, fields);
  if (answer.etag !== null) await ctx.store.rememberIdentity({ etag: answer.etag, me: fields });
  return { ...fields, notModified: false };
}

/**
 * Reads `/v1/me` for whoever is about to start an engine's first full pull
 * with this memo (the headless command needs the identity first): that
 * pull's `me` then takes this answer instead of asking again, so a run
 * asks once.
 */
export async function readMeAhead(ctx: MeContext): Promise<MeFields & { notModified: boolean }> {
  const me = await readMe(ctx);
  ctx.memo.set(ME_AHEAD, me.notModified);
  return me;
}

/** The answer readMeAhead left for this pull, taken once; null when there is none. */
function takeReadAhead(memo: Map<string, unknown>): (MeFields & { notModified: boolean }) | null {
  const notModified = memo.get(ME_AHEAD);
  memo.delete(ME_AHEAD);
  const body = rememberedMe(memo);
  return typeof notModified === 'boolean' && body !== null ? { ...body, notModified } : null;
}

export const meResource: PulledResource = {
  collection: 'me',
  needs: [],
  async pull(ctx: PullContext): Promise<ResourcePullResult> {
    const me = takeReadAhead(ctx.memo) ?? (await readMe(ctx));
    const result = emptyResult();
    if (me.notModified) result.notModified = 1;
    else {
      result.pulled = 1;
      if (me.org_id !== null) await ctx.store.setAccount({ orgId: me.org_id, username: me.username });
    }
    return result;
  },
};
