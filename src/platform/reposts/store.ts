import type { DbOrTx } from '../../store/store.js';
import type { PostRow } from '../posts/wire.js';
import type { UserRow } from '../users/wire.js';

/** The users with a live repost of a post, newest repost first, keyed by the repost's id. */
export async function listReposters(db: DbOrTx, postId: string, limit: number, after?: string): Promise<Array<UserRow & { relation_id: string }>> {
  let q = db
    .selectFrom('posts as r')
    .innerJoin('users as u', 'u.id', 'r.author_id')
    .selectAll('u')
    .select('r.id as relation_id')
    .where('r.reposted_post_id', '=', postId)
    .where('r.deleted_at', 'is', null);
  if (after) q = q.where('r.id', '<', after);
  return q.orderBy('r.id', 'desc').limit(limit).execute();
}

/** The live reposts of a post, newest first. */
export async function listReposts(db: DbOrTx, postId: string, limit: number, after?: string): Promise<PostRow[]> {
  let q = db.selectFrom('posts').selectAll().where('reposted_post_id', '=', postId).where('deleted_at', 'is', null);
  if (after) q = q.where('id', '<', after);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

/** The user's live posts that someone else has a live repost of, newest post first. */
export async function listRepostedPostsOf(db: DbOrTx, userId: string, limit: number, after?: string): Promise<PostRow[]> {
  let q = db
    .selectFrom('posts')
    .selectAll('posts')
    .where('posts.author_id', '=', userId)
    .where('posts.deleted_at', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('posts as r')
          .select('r.id')
          .whereRef('r.reposted_post_id', '=', 'posts.id')
          .where('r.author_id', '!=', userId)
          .where('r.deleted_at', 'is', null),
      ),
    );
  if (after) q = q.where('posts.id', '<', after);
  return q.orderBy('posts.id', 'desc').limit(limit).execute();
}
