import type { Caller } from '../../auth/authenticate.js';
import type { AppContext } from '../../context.js';
import { page } from '../../http/pagination.js';
import { parseEnumList } from '../../http/params.js';
import { hiddenPosts, parseSelection } from '../expansions.js';
import { parsePage } from '../graph/query.js';
import { errorsOnly, renderPosts, type PageResult } from '../graph/render.js';
import type { View } from '../view.js';
import { checkQuotePostsLookup } from './rules.js';
import { postExpansions } from './service.js';
import { findPostsByIds, listQuotes } from './store.js';

const QUOTE_POSTS = { min: 10, max: 100, default: 10 };

/**
 * GET /2/posts/{id}/quote_posts: the latest versions of the posts quoting this one, newest first.
 * `exclude=replies` leaves out quotes that are replies; a quote is never a repost, so
 * `exclude=retweets` changes nothing.
 */
export async function quotePosts(ctx: AppContext, caller: Caller, view: View, id: string, query: Record<string, unknown>): Promise<PageResult> {
  checkQuotePostsLookup(ctx, caller);
  const selection = parseSelection(ctx, query, postExpansions);
  const request = parsePage(ctx, query, QUOTE_POSTS);
  const exclude = parseEnumList(ctx.problems, 'exclude', typeof query.exclude === 'string' ? query.exclude : undefined, ['replies', 'retweets']);
  const [post] = await findPostsByIds(ctx.store.db, [id]);
  if (!post) return errorsOnly(ctx.problems.resourceNotFound({ parameter: 'id', value: id, resource_id: id, resource_type: 'post' }));
  if ((await hiddenPosts(ctx, view, [post])).has(post.id)) {
    return errorsOnly(ctx.problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'data', parameter: 'id' }));
  }
  const rows = await listQuotes(ctx.store.db, id, request.maxResults + 1, { after: request.after, excludeReplies: exclude.has('replies') });
  const { items, meta } = page(rows, request.maxResults, (p) => p.id);
  return renderPosts(ctx, view, selection, items, meta);
}
