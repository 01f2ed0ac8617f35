import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { compileSql, type SqlDialect } from '../../query/sql.js';
import type { DbOrTx } from '../../store/store.js';
import type { PostTable as PostRow } from '../../store/schema.js';

/** Live (not deleted) posts with these ids, in no particular order. */
export async function findPostsByIds(db: DbOrTx, ids: readonly string[]): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('posts').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).execute();
}

/** Posts with these ids, deleted ones too (a conversation whose first post is gone still has an author). */
export async function findPostsAnyState(db: DbOrTx, ids: readonly string[]): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('posts').selectAll().where('id', 'in', ids).execute();
}

export async function insertPost(db: DbOrTx, row: PostRow): Promise<void> {
  await db.insertInto('posts').values(row).execute();
}

/**
 * Whether the post mentions @username (case-insensitively): the query language's `@username`
 * operator, answered by the text index and the post's parsed entities.
 */
export function mentionsUsername(username: string, dialect: SqlDialect): RawBuilder<SqlBool> {
  return compileSql({ kind: 'mention', value: username.toLowerCase(), raw: `@${username}` }, dialect);
}

/**
 * Whether `authorId` has summoned `userId` (spec 000 rule 1): a live post of theirs mentions
 * @username or quotes one of the user's posts. A repost's `RT @author:` prefix names the source's
 * author without addressing them, so reposts do not count.
 */
export async function hasSummoned(db: DbOrTx, dialect: SqlDialect, authorId: string, userId: string, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('posts')
    .select('posts.id')
    .where('posts.author_id', '=', authorId)
    .where('posts.deleted_at', 'is', null)
    .where('posts.reposted_post_id', 'is', null)
    .where((eb) =>
      eb.or([mentionsUsername(username, dialect), eb('posts.quoted_post_id', 'in', eb.selectFrom('posts as q').select('q.id').where('q.author_id', '=', userId))]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The caller's live repost of a post, if any. */
export async function findLiveRepost(db: DbOrTx, authorId: string, sourceId: string): Promise<PostRow | undefined> {
  return db.selectFrom('posts').selectAll().where('author_id', '=', authorId).where('reposted_post_id', '=', sourceId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** Marks a post (it is already a new version's predecessor) as superseded; false when another edit got there first. */
export async function supersede(db: DbOrTx, id: string, byId: string): Promise<boolean> {
  const result = await db.updateTable('posts').set({ superseded_by_id: byId }).where('id', '=', id).where('superseded_by_id', 'is', null).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every version of an edited post shares its history and edit controls. */
export async function updateChain(db: DbOrTx, ids: readonly string[], history: string, controls: string): Promise<void> {
  await db.updateTable('posts').set({ edit_history_post_ids: history, edit_controls: controls }).where('id', 'in', ids).execute();
}

/** Soft-deletes the live posts among `ids`; returns those it deleted. */
export async function markDeleted(db: DbOrTx, ids: readonly string[], at: string): Promise<PostRow[]> {
  if (ids.length === 0) return [];
  const live = await db.selectFrom('posts').selectAll().where('id', 'in', ids).where('deleted_at', 'is', null).execute();
  if (live.length === 0) return [];
  await db.updateTable('posts').set({ deleted_at: at }).where('id', 'in', live.map((p) => p.id)).where('deleted_at', 'is', null).execute();
  return live;
}

type Counter = 'retweet_count' | 'reply_count' | 'quote_count';

/** Moves a counter of a post down by one, never below zero. */
export async function decrementCounter(db: DbOrTx, postId: string, column: Counter): Promise<void> {
  await db
    .updateTable('posts')
    .set({ [column]: sql`case when ${sql.ref(column)} > 0 then ${sql.ref(column)} - 1 else 0 end` })
    .where('id', '=', postId)
    .execute();
}

/** After a delete: one post fewer, the most recent post recomputed, a deleted pinned post unpinned. */
export async function settleAuthorAfterDelete(db: DbOrTx, userId: string, deletedIds: readonly string[]): Promise<void> {
  const latest = await db
    .selectFrom('posts')
    .select('id')
    .where('author_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  await db
    .updateTable('users')
    .set((eb) => ({
      post_count: sql`case when ${sql.ref('post_count')} > 0 then ${sql.ref('post_count')} - 1 else 0 end`,
      most_recent_post_id: latest?.id ?? null,
      pinned_post_id: eb.case().when('pinned_post_id', 'in', deletedIds).then(null).else(eb.ref('pinned_post_id')).end(),
    }))
    .where('id', '=', userId)
    .execute();
}

/** Live reposts of any of these posts. */
export async function liveRepostsOf(db: DbOrTx, sourceIds: readonly string[]): Promise<PostRow[]> {
  if (sourceIds.length === 0) return [];
  return db.selectFrom('posts').selectAll().where('reposted_post_id', 'in', sourceIds).where('deleted_at', 'is', null).execute();
}

export async function setReplyHidden(db: DbOrTx, ids: readonly string[], hidden: boolean): Promise<void> {
  await db.updateTable('posts').set({ reply_hidden: hidden ? 1 : 0 }).where('id', 'in', ids).execute();
}

/** Live latest versions quoting a post, newest first by id, after `after`. */
export async function listQuotes(db: DbOrTx, postId: string, limit: number, opts: { after?: string; excludeReplies?: boolean }): Promise<PostRow[]> {
  let q = db.selectFrom('posts').selectAll().where('quoted_post_id', '=', postId).where('deleted_at', 'is', null).where('superseded_by_id', 'is', null);
  if (opts.excludeReplies) q = q.where('in_reply_to_post_id', 'is', null);
  if (opts.after) q = q.where('id', '<', opts.after);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

/** Counts one impression for each post not authored by the viewer, and a view of the videos and GIFs they carry. */
export async function addImpressions(db: DbOrTx, viewerId: string, posts: readonly PostRow[], mediaKeys: readonly string[]): Promise<void> {
  const ids = posts.filter((p) => p.author_id !== viewerId).map((p) => p.id);
  if (ids.length === 0) return;
  await db.updateTable('posts').set((eb) => ({ impression_count: eb('impression_count', '+', 1) })).where('id', 'in', ids).execute();
  if (mediaKeys.length > 0) {
    await db.updateTable('media').set((eb) => ({ view_count: eb('view_count', '+', 1) })).where('media_key', 'in', mediaKeys).where('type', '!=', 'photo').execute();
  }
}
