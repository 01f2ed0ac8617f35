import type { PlatformContext } from '../../platform/context.js';
import { startPolledJob, type PolledJob } from '../../polled-job.js';
import { toJson, type DbOrTx } from '../../store/store.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import { newAdsId } from '../ids.js';
import { checkAdvertiser, checkContent, createAdsPost } from './service.js';
import { claimScheduled, dueScheduled, findScheduled, insertScheduled, removeScheduled, scheduledOf, updateScheduled, type ScheduledPostRow } from './store.js';

/**
 * Scheduled posts and draft posts (shared/reference/ads.md §3): a post's content kept for later.
 * A scheduled post is published by the injected clock once scheduled_at has come (at most a
 * year ahead, seconds ignored); both are hard-deleted.
 */
export type PostKind = 'scheduled' | 'draft';
export const SCHEDULED_SORTING = entitySorting(undefined, { scheduled_at: { column: 'scheduled_at', nullable: true } });
const YEAR_MS = 366 * 24 * 60 * 60 * 1000;
const LABEL: Record<PostKind, string> = { scheduled: 'Scheduled Post', draft: 'Draft Post' };
const PARAM: Record<PostKind, string> = { scheduled: 'scheduled_post_id', draft: 'draft_post_id' };

export interface ScheduledInput {
  as_user_id?: string;
  text?: string | null;
  card_uri?: string | null;
  media_keys?: string[] | null;
  nullcast?: boolean;
  name?: string | null;
  scheduled_at?: string;
}

/** Seconds are ignored; the time must be ahead, and at most a year ahead. */
function checkScheduledAt(actor: AdsActor, at: string): string {
  const d = new Date(at);
  d.setUTCSeconds(0, 0);
  const now = actor.ctx.clock.now().getTime();
  if (d.getTime() <= now) throw AdsError.invalidParameter('scheduled_at', `scheduled_at must be in the future, got ${d.toISOString().replace(/\.000Z$/, 'Z')}`);
  if (d.getTime() > now + YEAR_MS) throw AdsError.invalidParameter('scheduled_at', 'scheduled_at must be at most one year ahead');
  return d.toISOString();
}

async function checkRow(actor: AdsActor, db: DbOrTx, account: AccountRow, row: ScheduledPostRow): Promise<void> {
  await checkAdvertiser(actor, db, account, row.user_id, row.nullcast === 1);
  await checkContent(db, account, { as_user_id: row.user_id, text: row.text, card_uri: row.card_uri, media_keys: JSON.parse(row.media_keys) as string[], nullcast: row.nullcast === 1 });
}

export async function createScheduled(actor: AdsActor, db: DbOrTx, account: AccountRow, kind: PostKind, p: ScheduledInput & { as_user_id: string }): Promise<ScheduledPostRow> {
  const now = actor.ctx.clock.now().toISOString();
  const row: ScheduledPostRow = {
    id: newAdsId(actor.ctx),
    account_id: account.id,
    kind,
    user_id: p.as_user_id,
    text: p.text ?? null,
    name: p.name ?? null,
    card_uri: p.card_uri ?? null,
    media_keys: toJson(p.media_keys ?? []),
    nullcast: p.nullcast === false ? 0 : 1,
    scheduled_at: kind === 'scheduled' ? checkScheduledAt(actor, p.scheduled_at!) : null,
    scheduled_status: kind === 'scheduled' ? 'SCHEDULED' : null,
    completed_at: null,
    post_id: null,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
  };
  await checkRow(actor, db, account, row);
  await insertScheduled(db, row);
  return row;
}

export async function getScheduled(db: DbOrTx, account: AccountRow, kind: PostKind, id: string | undefined): Promise<ScheduledPostRow> {
  const row = id === undefined ? undefined : await findScheduled(db, account.id, kind, id);
  if (!row) throw AdsError.notFound(`${LABEL[kind]} ${id ?? ''} was not found for Account ${account.id}`, PARAM[kind]);
  return row;
}

/** PUT: only the fields given; an empty card_uri or media_keys unsets it. A published post is no longer changed. */
export async function updateScheduledPost(actor: AdsActor, db: DbOrTx, account: AccountRow, kind: PostKind, id: string | undefined, p: ScheduledInput): Promise<ScheduledPostRow> {
  const before = await getScheduled(db, account, kind, id);
  if (kind === 'scheduled' && before.scheduled_status !== 'SCHEDULED') {
    throw AdsError.invalidParameter(PARAM[kind], `${LABEL[kind]} ${before.id} is ${before.scheduled_status}; only a SCHEDULED post can be changed`);
  }
  const next: ScheduledPostRow = { ...before, updated_at: actor.ctx.clock.now().toISOString() };
  if (p.as_user_id !== undefined) next.user_id = p.as_user_id;
  if (p.text !== undefined) next.text = p.text;
  if (p.name !== undefined) next.name = p.name;
  if (p.card_uri !== undefined) next.card_uri = p.card_uri;
  if (p.media_keys !== undefined) next.media_keys = toJson(p.media_keys ?? []);
  if (p.nullcast !== undefined) next.nullcast = p.nullcast ? 1 : 0;
  if (p.scheduled_at !== undefined && kind === 'scheduled') next.scheduled_at = checkScheduledAt(actor, p.scheduled_at);
  await checkRow(actor, db, account, next);
  const { id: _id, ...changes } = next;
  return updateScheduled(db, before.id, changes);
}

/** DELETE: a hard delete; the object is answered one last time. */
export async function deleteScheduled(db: DbOrTx, account: AccountRow, kind: PostKind, id: string | undefined): Promise<ScheduledPostRow> {
  const row = await getScheduled(db, account, kind, id);
  await removeScheduled(db, row.id);
  return row;
}

export function listScheduled(db: DbOrTx, account: AccountRow, kind: PostKind, p: ListRequest & { ids?: string[]; user_id?: string }) {
  return runList(db, scheduledOf(db, account.id, kind, { ids: p.ids, userId: p.user_id }), SCHEDULED_SORTING, p);
}

/**
 * Publishes the scheduled posts whose time has come by the injected clock: each claimed, then
 * posted as POST accounts/:account_id/post would post it, in one transaction. A post that can no
 * longer be made (its card or media deleted, the advertiser gone) becomes FAILED.
 */
export async function publishDueScheduledPosts(ctx: PlatformContext): Promise<number> {
  const due = await dueScheduled(ctx.store.db, ctx.clock.now().toISOString(), 50);
  let published = 0;
  for (const row of due) {
    const account = await ctx.store.db.selectFrom('ads_accounts').selectAll().where('id', '=', row.account_id).executeTakeFirst();
    if (!account) continue;
    const actor: AdsActor = { ctx, env: account.environment, userId: row.created_by, appTier: 'pro' };
    try {
      await ctx.store.db.transaction().execute(async (tx) => {
        if (!(await claimScheduled(tx, row.id, 'SCHEDULED', 'PUBLISHING'))) return;
        const made = await createAdsPost(actor, tx, account, {
          as_user_id: row.user_id,
          text: row.text,
          card_uri: row.card_uri,
          media_keys: JSON.parse(row.media_keys) as string[],
          nullcast: row.nullcast === 1,
          name: row.name ?? undefined,
          source: 'Plaza Ads scheduler',
        });
        const at = ctx.clock.now().toISOString();
        await updateScheduled(tx, row.id, { scheduled_status: 'COMPLETED', completed_at: at, post_id: made.post.id, updated_at: at });
        published += 1;
      });
    } catch (err) {
      if (!(err instanceof AdsError)) throw err;
      ctx.log.info({ scheduled_post_id: row.id, reason: err.message }, 'a scheduled post could not be published');
      const at = ctx.clock.now().toISOString();
      await ctx.store.db.updateTable('ads_scheduled_posts').set({ scheduled_status: 'FAILED', completed_at: at, updated_at: at }).where('id', '=', row.id).where('scheduled_status', '=', 'SCHEDULED').execute();
    }
  }
  return published;
}

/** Publishes due scheduled posts as the clock reaches them: polled, one run at a time. */
export function startScheduledPublisher(ctx: PlatformContext, pollMs = 1_000): PolledJob {
  return startPolledJob(ctx, 'publishing scheduled posts failed', () => publishDueScheduledPosts(ctx), pollMs);
}
