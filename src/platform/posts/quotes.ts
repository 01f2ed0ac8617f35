import type { Caller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { page } from '../../http/pagination.js';
import { hiddenPosts } from '../expansions.js';
import type { ListRequest } from '../graph/query.js';
import { errorsOnly, renderPosts, type PageResult } from '../graph/render.js';
import type { View } from '../view.js';
import { checkQuotePostsLookup } from './rules.js';
import { findPostsByIds, listQuotes } from './store.js';
import { problems } from '../../http/problems.js';

/** A quote-posts request, parsed by its route: `exclude=replies` sets excludeReplies. */
export interface QuotePostsRequest extends ListRequest {
  excludeReplies: boolean;
}

/**
 * GET /2/posts/{id}/quote_posts: the latest versions of the posts quoting this one, newest first.
 * `exclude=replies` leaves out quotes that are replies; a quote is never a repost, so
 * `exclude=retweets` changes nothing.
 */
export async function quotePosts(ctx: PlatformContext, caller: Caller, view: View, id: string, { selection, page: request, excludeReplies }: QuotePostsRequest): Promise<PageResult> {
  checkQuotePostsLookup(ctx, caller);
  const [post] = await findPostsByIds(ctx.store.db, [id]);
  if (!post) return errorsOnly(problems.resourceNotFound({ parameter: 'id', value: id, resource_id: id, resource_type: 'post' }));
  if ((await hiddenPosts(ctx, view, [post])).has(post.id)) {
    return errorsOnly(problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'data', parameter: 'id' }));
  }
  const rows = await listQuotes(ctx.store.db, id, request.maxResults + 1, { after: request.after, excludeReplies });
  const { items, meta } = page(rows, request.maxResults, (p) => p.id);
  return renderPosts(ctx, view, selection, items, meta);
}
