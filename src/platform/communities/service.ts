import type { PlatformContext } from '../context.js';
import { decodePageToken, encodePageToken, parseMaxResults, type MaxResultsRange } from '../../http/pagination.js';
import { page } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import type { ListRequest } from '../graph/query.js';
import { renderPosts, type PageResult } from '../graph/render.js';
import type { View } from '../view.js';
import { findCommunity, isCommunityMember, listCommunityPosts, searchCommunityRows, type CommunityRow } from './store.js';
import { communityWire } from './wire.js';


function notFound(id: string): ProblemError {
  return new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find community with id: [${id}].`));
}

/**
 * The community a new post names: it must exist (bad input otherwise) and the author must be a
 * member (posting to a community requires membership).
 */
export async function requireCommunityMember(db: DbOrTx, communityId: string, userId: string): Promise<CommunityRow> {
  const community = await findCommunity(db, communityId);
  if (!community) throw invalidParameter('community_id', [communityId], `The \`community_id\` body field value [${communityId}] is not a community`);
  if (!(await isCommunityMember(db, communityId, userId))) {
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `Only members of the community "${community.name}" (${communityId}) can post to it.`));
  }
  return community;
}

/** GET /2/communities/{id} with community.fields. */
export async function lookupCommunity(ctx: PlatformContext, view: View, id: string, selected: ReadonlySet<string>): Promise<Record<string, unknown>> {
  const community = await findCommunity(ctx.store.db, id);
  if (!community) throw notFound(id);
  return communityWire(community, view, selected);
}

/** GET /2/communities/{id}/posts: the community's posts, newest first (public communities are readable by anyone). */
export async function communityPosts(ctx: PlatformContext, view: View, id: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  if (!(await findCommunity(ctx.store.db, id))) throw notFound(id);
  const rows = await listCommunityPosts(ctx.store.db, id, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (p) => p.id, { ids: (p) => p.id });
  return renderPosts(ctx, view, selection, items, meta);
}

/** GET /2/communities/search, parsed at the edge. */
export interface CommunitySearch {
  words: string[];
  maxResults: number;
  after?: { memberCount: number; id: string };
  selected: ReadonlySet<string>;
}

const SEARCH_KEY = /^([0-9]{1,15}) ([0-9]{1,19})$/;

/** query (its words), max_results, and next_token or its synonym pagination_token (one of them). */
export function parseCommunitySearch(q: Record<string, unknown>, range: MaxResultsRange, selected: ReadonlySet<string>): CommunitySearch {
  const text = String(q.query ?? '');
  const words = text.toLowerCase().split(/\s+/).filter((w) => w.length > 0);
  if (words.length === 0) throw invalidParameter('query', [text], 'The `query` query parameter must hold at least one word');
  if (q.next_token !== undefined && q.pagination_token !== undefined && q.next_token !== q.pagination_token) {
    throw invalidParameter('pagination_token', [String(q.pagination_token)], 'Give `next_token` or `pagination_token`, not two different tokens');
  }
  const tokenName = q.next_token !== undefined ? 'next_token' : 'pagination_token';
  const key = decodePageToken(q[tokenName], tokenName);
  const match = key === undefined ? undefined : SEARCH_KEY.exec(key);
  if (key !== undefined && !match) throw invalidParameter(tokenName, [String(q[tokenName])], `The \`${tokenName}\` query parameter value [${String(q[tokenName])}] is not a valid token`);
  return {
    words,
    maxResults: parseMaxResults(q.max_results, range),
    after: match ? { memberCount: Number(match[1]), id: match[2] } : undefined,
    selected,
  };
}

/**
 * Communities whose name or description holds every word of the query (case-insensitive), the
 * largest first, then the newest: the order a person searching for a community expects.
 */
export async function searchCommunities(ctx: PlatformContext, view: View, search: CommunitySearch): Promise<{ data: Record<string, unknown>[]; meta: { result_count: number; next_token?: string } }> {
  const rows = await searchCommunityRows(ctx.store.db, search.words, search.maxResults + 1, search.after);
  const items = rows.slice(0, search.maxResults);
  const last = items[items.length - 1];
  return {
    data: items.map((c) => communityWire(c, view, search.selected)),
    meta: { result_count: items.length, ...(rows.length > search.maxResults && last ? { next_token: encodePageToken(`${last.member_count} ${last.id}`) } : {}) },
  };
}
