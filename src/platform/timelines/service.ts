import type { UserCaller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { page } from '../../http/pagination.js';
import { ResponseReads, type Selection } from '../expansions.js';
import { requireSelf } from '../graph/access.js';
import { compositeKey, type TimePageRequest, type TimeWindow } from '../graph/query.js';
import { errorsOnly, renderPosts, type PageResult } from '../graph/render.js';
import { subjectUser } from '../graph/visibility.js';
import type { PostRow } from '../posts/wire.js';
import type { View } from '../view.js';
import { authoredBy, homeOf, mentioning, pagedPostKeys, pagedPostKeysOfAuthors, type PostCondition } from './store.js';

/** What a timeline request asks for, parsed at the edge: the field selection, the page and the time window. */
export interface TimelineRequest {
  selection: Selection;
  page: TimePageRequest;
  window: TimeWindow;
}

/** Where a timeline's posts come from: a condition on posts, or a set of authors and a condition on their posts. */
type Source = { where: PostCondition; authors?: readonly string[] };

async function timeline(ctx: AppContext, view: View, { selection, page: request, window }: TimelineRequest, source: () => Promise<Source | PageResult>): Promise<PageResult> {
  const from = await source();
  if (!('where' in from)) return from;
  const db = ctx.store.db;
  const keys = from.authors
    ? await pagedPostKeysOfAuthors(db, from.authors, from.where, window, request.maxResults + 1, request.after)
    : await pagedPostKeys(db, from.where, window, request.maxResults + 1, request.after);
  const reads = new ResponseReads(ctx);
  const found = new Map((await reads.postsByIds(keys.map((k) => k.id))).map((p) => [p.id, p]));
  const rows = keys.flatMap((k) => found.get(k.id) ?? []);
  const { items, meta } = page(rows, request.maxResults, (p: PostRow) => compositeKey(p.created_at, p.id), { ids: (p) => p.id });
  return renderPosts(ctx, view, selection, items, meta, reads);
}

/** GET /2/users/{id}/posts: the user's posts, newest first; a protected user's only for approved followers. */
export async function userPostsTimeline(ctx: AppContext, view: View, userId: string, request: TimelineRequest): Promise<PageResult> {
  return timeline(ctx, view, request, async () => {
    const subject = await subjectUser(ctx, view, userId, { protectedContent: true });
    return subject.problem ? errorsOnly(subject.problem) : { where: authoredBy(userId) };
  });
}

/** GET /2/users/{id}/mentions: others' posts mentioning the user (or replying to them), newest first. */
export async function mentionsTimeline(ctx: AppContext, view: View, userId: string, request: TimelineRequest): Promise<PageResult> {
  return timeline(ctx, view, request, async () => {
    const subject = await subjectUser(ctx, view, userId);
    return subject.problem ? errorsOnly(subject.problem) : { where: mentioning(userId, subject.user.username, ctx.store.dialect) };
  });
}

/**
 * GET /2/users/{id}/timelines/reverse_chronological: the authenticated user's home timeline, their
 * own posts and those of the accounts they follow, newest first; muted accounts leave it.
 */
export async function homeTimeline(ctx: AppContext, caller: UserCaller, view: View, userId: string, request: TimelineRequest): Promise<PageResult> {
  requireSelf(ctx, caller, userId, 'id', 'read the home timeline');
  return timeline(ctx, view, request, () => homeOf(ctx.store.db, userId));
}
