import type { PlatformContext } from '../context.js';
import type { MatchablePost } from '../../query/index.js';
import type { DbOrTx } from '../../store/store.js';
import { findPostsByIds } from '../posts/store.js';
import { matchablePosts as matchableOfRows } from '../search/store.js';

const CHUNK = 500;

/**
 * The matcher's view of posts of the store (text, author, entities, reference types, lang,
 * counts...), read in one go. Deleted posts are left out; so are ids that name no post.
 */
export async function matchablePosts(_ctx: PlatformContext, db: DbOrTx, postIds: readonly string[]): Promise<Map<string, MatchablePost>> {
  const out = new Map<string, MatchablePost>();
  const unique = [...new Set(postIds)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await findPostsByIds(db, unique.slice(i, i + CHUNK));
    for (const post of await matchableOfRows(db, rows)) out.set(post.id, post);
  }
  return out;
}
