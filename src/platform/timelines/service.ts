import type { UserCaller } from '../../auth/authenticate.js';
import { deliverPromotedPost, PROMOTED_SLOT } from '../../ads/delivery/service.js';
import type { PlatformContext } from '../context.js';
import { page } from '../../http/pagination.js';
import { ResponseReads, type Selection } from '../expansions.js';
import { requireSelf } from '../graph/access.js';
import { compositeKey, type TimePageRequest } from '../graph/query.js';
import type { TimeWindow } from './store.js';
import { errorsOnly, renderPosts, type PageResult } from '../graph/render.js';
import { subjectUser } from '../graph/visibility.js';
import type { PostRow } from '../posts/wire.js';
import type { View } from '../view.js';
import { homeAuthors, mentioning, pagedAuthorKeys, pagedHomeKeysPostgres, pagedPostKeys, type PostCondition, type PostKey } from './store.js';

/** What a timeline request asks for, parsed at the edge: the field selection, the page and the time window. */
export interface TimelineRequest {
  selection: Selection;
  page: TimePageRequest;
  window: TimeWindow;
}

/**
 * Where a timeline's posts come from: a condition on posts, a set of authors (a home timeline's
 * owner first), or a query of its own that pages them.
 */
type Source =
  | { where: PostCondition }
  | { authors: readonly string[]; home: boolean }
  | { keys: (limit: number, after?: TimePageRequest['after']) => Promise<PostKey[]> };

/** A promoted post to show on a page of posts (a home timeline's), given the page's own posts. */
type Promotion = (items: readonly PostRow[], reads: ResponseReads) => Promise<PostRow | undefined>;

async function timeline(
  ctx: PlatformContext,
  view: View,
  { selection, page: request, window }: TimelineRequest,
  source: (reads: ResponseReads) => Promise<Source | PageResult>,
  promotion?: Promotion,
): Promise<PageResult> {
  const reads = new ResponseReads(ctx);
  const from = await source(reads);
  if (!('where' in from) && !('keys' in from) && !('authors' in from)) return from;
  const { db, dialect } = ctx.store;
  const limit = request.maxResults + 1;
  const keys =
    'keys' in from
      ? await from.keys(limit, request.after)
      : 'authors' in from
        ? await pagedAuthorKeys(db, dialect, from.authors, from.home, window, limit, request.after)
        : await pagedPostKeys(db, from.where, window, limit, request.after);
  // In the page's order, as reads answer; a post deleted since the page was read is missing.
  const rows = await reads.postsByIds(keys.map((k) => k.id));
  const { items, meta } = page(rows, request.maxResults, (p: PostRow) => compositeKey(p.created_at, p.id), { ids: (p) => p.id });
  const promoted = promotion && items.length > 0 ? await promotion(items, reads) : undefined;
  if (!promoted) return renderPosts(ctx, view, selection, items, meta, reads);
  // The page's own posts keep their order and their paging (newest_id, oldest_id, next_token).
  const slot = Math.min(PROMOTED_SLOT, items.length);
  const shown = [...items.slice(0, slot), promoted, ...items.slice(slot)];
  return renderPosts(ctx, view, selection, shown, { ...meta, result_count: shown.length }, reads);
}

/** GET /2/users/{id}/posts: the user's posts, newest first; a protected user's only for approved followers. */
export async function userPostsTimeline(ctx: PlatformContext, view: View, userId: string, request: TimelineRequest): Promise<PageResult> {
  return timeline(ctx, view, request, async (reads) => {
    const subject = await subjectUser(ctx, view, userId, { protectedContent: true, reads });
    return subject.problem ? errorsOnly(subject.problem) : { authors: [userId], home: false };
  });
}

/** GET /2/users/{id}/mentions: others' posts mentioning the user (or replying to them), newest first. */
export async function mentionsTimeline(ctx: PlatformContext, view: View, userId: string, request: TimelineRequest): Promise<PageResult> {
  return timeline(ctx, view, request, async () => {
    const subject = await subjectUser(ctx, view, userId);
    return subject.problem ? errorsOnly(subject.problem) : { where: mentioning(userId, subject.user.username, ctx.store.dialect) };
  });
}

/**
 * GET /2/users/{id}/timelines/reverse_chronological: the authenticated user's home timeline, their
 * own posts and those of the accounts they follow, newest first; muted accounts leave it. A page
 * may hold one promoted post besides (issue 38: src/ads/delivery/service.ts).
 */
export async function homeTimeline(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, request: TimelineRequest): Promise<PageResult> {
  requireSelf(caller, userId, 'id', 'read the home timeline');
  const { db, dialect } = ctx.store;
  return timeline(ctx, view, request, async () => {
    // PostgreSQL: the follows and the page in one round trip. SQLite: two statements, no round trips.
    if (dialect === 'postgres') return { keys: (limit, after) => pagedHomeKeysPostgres(db, userId, request.window, limit, after) };
    return { authors: await homeAuthors(db, userId), home: true };
  }, async (items, reads) => {
    // Promoted posts of the advertising interface whose targeting reaches the user (src/ads/delivery/).
    const id = await deliverPromotedPost(ctx, userId, items.map((p) => p.id), JSON.stringify(request.page.after ?? null));
    return id === undefined ? undefined : (await reads.postsByIds([id]))[0];
  });
}
