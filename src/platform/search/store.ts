import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { leavesOf, withUserIds, type QueryNode } from '../../query/ast.js';
import type { MatchablePost } from '../../query/match.js';
import { fromJson, type DbOrTx, type StoreDialect } from '../../store/store.js';
import type { PostRow } from '../posts/wire.js';
import { READABLE } from '../visibility/rule.js';
import { visibilitySql } from '../visibility/sql.js';
import { changedHours, keptCounts, readFromPosts, wholeHours } from './term-hours.js';

/** The rows a search may see: live latest versions within the window, visible to the viewer. */
export interface SearchScope {
  /** Inclusive. */
  startTime: string;
  /** Exclusive. */
  endTime: string;
  sinceId?: string;
  untilId?: string;
  viewerId?: string;
  /** Reposts leave keyword results (release history, May 4, 2026). */
  excludeReposts: boolean;
}

/**
 * The rows a search may see (`visible`), or the rows the kept word counts hold that the viewer
 * may not (`hidden`: protected authors' posts the viewer does not follow).
 */
function scoped(db: DbOrTx, where: RawBuilder<SqlBool>, scope: SearchScope, rows: 'visible' | 'hidden' = 'visible') {
  let q = db
    .selectFrom('posts')
    .where('posts.deleted_at', 'is', null)
    .where('posts.superseded_by_id', 'is', null)
    // Promoted-only posts (nullcast, made through the advertising interface) are never found.
    .where('posts.nullcast', '=', 0)
    .where('posts.created_at', '>=', scope.startTime)
    .where('posts.created_at', '<', scope.endTime)
    .where(where);
  if (scope.sinceId) q = q.where('posts.id', '>', scope.sinceId);
  if (scope.untilId) q = q.where('posts.id', '<', scope.untilId);
  if (scope.excludeReposts) q = q.where('posts.reposted_post_id', 'is', null);
  // A protected author's posts reach only the author and their approved followers.
  const readable = visibilitySql(READABLE, sql.ref('posts.author_id'), scope.viewerId);
  return q.where(rows === 'visible' ? readable : sql<SqlBool>`not ${readable}`);
}

/** Newest first by (created_at, id), after the composite key `after`. */
export async function searchByRecency(db: DbOrTx, where: RawBuilder<SqlBool>, scope: SearchScope, limit: number, after?: { createdAt: string; id: string }): Promise<PostRow[]> {
  let q = scoped(db, where, scope).selectAll('posts');
  if (after) {
    q = q.where((eb) => eb.or([eb('posts.created_at', '<', after.createdAt), eb.and([eb('posts.created_at', '=', after.createdAt), eb('posts.id', '<', after.id)])]));
  }
  return q.orderBy('posts.created_at', 'desc').orderBy('posts.id', 'desc').limit(limit).execute();
}

/** Most engaged first (likes, reposts, replies and quotes), then newest; paged by offset. */
export async function searchByRelevancy(db: DbOrTx, where: RawBuilder<SqlBool>, scope: SearchScope, limit: number, offset: number): Promise<PostRow[]> {
  return scoped(db, where, scope)
    .selectAll('posts')
    .orderBy(sql`posts.like_count + posts.retweet_count + posts.reply_count + posts.quote_count`, 'desc')
    .orderBy('posts.created_at', 'desc')
    .orderBy('posts.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Matching posts per bucket of `prefix` characters of created_at (13: the hour, 16: the minute, 10: the day). */
async function grouped(q: ReturnType<typeof scoped>, prefix: number): Promise<Map<string, number>> {
  const bucket = sql<string>`substr(posts.created_at, 1, ${sql.lit(prefix)})`;
  const rows = await q.select([bucket.as('bucket'), (eb) => eb.fn.countAll<number | string>().as('n')]).groupBy(bucket).execute();
  return new Map(rows.map((r) => [r.bucket, Number(r.n)]));
}

/**
 * Matching posts per time bucket: `prefix` characters of created_at (13: the hour, 16: the
 * minute, 10: the day). A query of one word (`word`) by hour or day on PostgreSQL reads the
 * window's whole, unchanged hours from the kept counts (term-hours.ts), less the protected posts
 * the viewer may not see, and only the rest from posts.
 */
export async function countByBucket(db: DbOrTx, dialect: StoreDialect, where: RawBuilder<SqlBool>, scope: SearchScope, prefix: number, word?: string): Promise<Map<string, number>> {
  const startMs = Date.parse(scope.startTime);
  const endMs = Date.parse(scope.endTime);
  // Kept counts: PostgreSQL, one word, hours or days, no id bounds.
  const split = dialect === 'postgres' && word !== undefined && !scope.sinceId && !scope.untilId && prefix <= 13 ? wholeHours(startMs, endMs) : undefined;
  if (!split || word === undefined) return grouped(scoped(db, where, scope), prefix);
  const changed = await changedHours(db, split);
  const unchanged = changed.length ? sql<SqlBool>`substr(posts.created_at, 1, 13) not in (${sql.join(changed)})` : sql<SqlBool>`true`;
  const [counts, kept, hidden] = await Promise.all([
    grouped(scoped(db, where, scope).where(readFromPosts(startMs, endMs, split, changed)), prefix),
    keptCounts(db, word, split, changed, !scope.excludeReposts),
    grouped(scoped(db, where, { ...scope, startTime: split.from, endTime: split.to }, 'hidden').where(unchanged), 13),
  ]);
  for (const [hour, n] of kept) {
    const bucket = hour.slice(0, prefix);
    counts.set(bucket, (counts.get(bucket) ?? 0) + n - (hidden.get(hour) ?? 0));
  }
  return counts;
}

/**
 * Posts as the in-memory matcher sees them: each row with its author's profile, the author of
 * the post it replies to and of the post it reposts, and its media types. The filtered stream
 * builds its input with this too.
 */
export async function matchablePosts(db: DbOrTx, rows: readonly PostRow[]): Promise<MatchablePost[]> {
  if (rows.length === 0) return [];
  const reposted = [...new Set(rows.flatMap((r) => (r.reposted_post_id ? [r.reposted_post_id] : [])))];
  const sources = new Map<string, string>();
  for (let i = 0; i < reposted.length; i += 500) {
    for (const s of await db.selectFrom('posts').select(['id', 'author_id']).where('id', 'in', reposted.slice(i, i + 500)).execute()) sources.set(s.id, s.author_id);
  }
  const userIds = [...new Set(rows.flatMap((r) => [r.author_id, ...(r.in_reply_to_user_id ? [r.in_reply_to_user_id] : [])]).concat([...sources.values()]))];
  const users = new Map<string, { username: string; name: string; description: string; location: string | null; verified: number }>();
  for (let i = 0; i < userIds.length; i += 500) {
    const batch = await db.selectFrom('users').select(['id', 'username', 'name', 'description', 'location', 'verified']).where('id', 'in', userIds.slice(i, i + 500)).execute();
    for (const u of batch) users.set(u.id, u);
  }
  const keys = [...new Set(rows.flatMap((r) => fromJson<string[]>(r.media_keys) ?? []))];
  const mediaTypes = new Map<string, string>();
  for (let i = 0; i < keys.length; i += 500) {
    for (const m of await db.selectFrom('media').select(['media_key', 'type']).where('media_key', 'in', keys.slice(i, i + 500)).execute()) mediaTypes.set(m.media_key, m.type);
  }
  return rows.map((r) => {
    const author = users.get(r.author_id);
    const repostedAuthorId = r.reposted_post_id ? (sources.get(r.reposted_post_id) ?? null) : null;
    const mediaKeys = fromJson<string[]>(r.media_keys) ?? [];
    return {
      id: r.id,
      text: r.text,
      authorId: r.author_id,
      authorUsername: author?.username ?? '',
      authorName: author?.name ?? '',
      authorDescription: author?.description ?? '',
      authorLocation: author?.location ?? '',
      authorVerified: author?.verified === 1,
      inReplyToPostId: r.in_reply_to_post_id,
      inReplyToUserId: r.in_reply_to_user_id,
      inReplyToUsername: r.in_reply_to_user_id ? (users.get(r.in_reply_to_user_id)?.username ?? null) : null,
      conversationId: r.conversation_id,
      quotedPostId: r.quoted_post_id,
      repostedPostId: r.reposted_post_id,
      repostedAuthorId,
      repostedAuthorUsername: repostedAuthorId ? (users.get(repostedAuthorId)?.username ?? null) : null,
      lang: r.lang,
      entities: fromJson(r.entities) ?? {},
      contextAnnotations: fromJson(r.context_annotations) ?? [],
      geo: fromJson(r.geo),
      mediaKeys,
      mediaTypes: mediaKeys.flatMap((k) => (mediaTypes.has(k) ? [mediaTypes.get(k)!] : [])),
      likeCount: r.like_count,
      replyCount: r.reply_count,
      repostCount: r.retweet_count,
    };
  });
}

/** The query with every from:, to: and reposts_of: resolved to user ids (by username, case-insensitive, or id), so the indexes answer them. */
export async function resolveUsers(db: DbOrTx, ast: QueryNode): Promise<QueryNode> {
  const names = [...new Set(leavesOf(ast).flatMap((l) => (l.kind === 'from' || l.kind === 'to' || l.kind === 'reposts_of' ? [l.user] : [])))];
  if (names.length === 0) return ast;
  const found = await db.selectFrom('users').select(['id', 'username_lower']).where((eb) => eb.or([eb('username_lower', 'in', names), eb('id', 'in', names)])).execute();
  const lookup = new Map(names.map((n) => [n, found.filter((u) => u.username_lower === n || u.id === n).map((u) => u.id)]));
  return withUserIds(ast, lookup);
}
