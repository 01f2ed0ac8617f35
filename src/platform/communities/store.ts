import { sql } from 'kysely';
import type { DbOrTx } from '../../store/store.js';
import type { CommunityTable } from '../../store/schema-posts.js';
import type { PostRow } from '../posts/wire.js';

export type CommunityRow = CommunityTable;

export async function findCommunity(db: DbOrTx, id: string): Promise<CommunityRow | undefined> {
  return db.selectFrom('communities').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function isCommunityMember(db: DbOrTx, communityId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('community_members').select('id').where('community_id', '=', communityId).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

export async function insertCommunity(db: DbOrTx, row: CommunityRow): Promise<void> {
  await db.insertInto('communities').values(row).execute();
}

/** Adds a member (once) and counts them. */
export async function addCommunityMember(db: DbOrTx, p: { id: string; communityId: string; userId: string; role: string; at: string }): Promise<boolean> {
  const result = await db
    .insertInto('community_members')
    .values({ id: p.id, community_id: p.communityId, user_id: p.userId, role: p.role, created_at: p.at })
    .onConflict((oc) => oc.columns(['community_id', 'user_id']).doNothing())
    .executeTakeFirst();
  const added = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (added) await db.updateTable('communities').set((eb) => ({ member_count: eb('member_count', '+', 1) })).where('id', '=', p.communityId).execute();
  return added;
}

/** Live latest versions posted to a community, newest first by id, after `after`. */
export async function listCommunityPosts(db: DbOrTx, communityId: string, limit: number, after?: string): Promise<PostRow[]> {
  let q = db.selectFrom('posts').selectAll().where('community_id', '=', communityId).where('deleted_at', 'is', null).where('superseded_by_id', 'is', null);
  if (after) q = q.where('id', '<', after);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

/** A LIKE pattern matching `text` literally, with `!` as the escape character. */
const likeLiteral = (text: string) => text.replace(/[!%_]/g, (c) => `!${c}`);

/** Communities whose name or description contains every word (lowercase), by member_count then id, descending, after the cursor. */
export async function searchCommunityRows(db: DbOrTx, words: readonly string[], limit: number, after?: { memberCount: number; id: string }): Promise<CommunityRow[]> {
  let q = db.selectFrom('communities').selectAll();
  for (const word of words) {
    const pattern = `%${likeLiteral(word)}%`;
    q = q.where(sql<boolean>`(lower(name) like ${pattern} escape '!' or lower(description) like ${pattern} escape '!')`);
  }
  if (after) {
    q = q.where((eb) => eb.or([eb('member_count', '<', after.memberCount), eb.and([eb('member_count', '=', after.memberCount), eb('id', '<', after.id)])]));
  }
  return q.orderBy('member_count', 'desc').orderBy('id', 'desc').limit(limit).execute();
}
