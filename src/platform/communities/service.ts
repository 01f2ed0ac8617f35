import type { AppContext } from '../../context.js';
import { page } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import type { ListRequest } from '../graph/query.js';
import { renderPosts, type PageResult } from '../graph/render.js';
import type { View } from '../view.js';
import { findCommunity, isCommunityMember, listCommunityPosts, type CommunityRow } from './store.js';
import { COMMUNITY_DEFAULTS, communityFields } from './wire.js';


function notFound(ctx: AppContext, id: string): ProblemError {
  return new ProblemError(404, ctx.problems.aboutBlank(404, 'Not Found', `Could not find community with id: [${id}].`));
}

/**
 * The community a new post names: it must exist (bad input otherwise) and the author must be a
 * member (posting to a community requires membership).
 */
export async function requireCommunityMember(ctx: AppContext, db: DbOrTx, communityId: string, userId: string): Promise<CommunityRow> {
  const community = await findCommunity(db, communityId);
  if (!community) throw invalidParameter(ctx.problems, 'community_id', [communityId], `The \`community_id\` body field value [${communityId}] is not a community`);
  if (!(await isCommunityMember(db, communityId, userId))) {
    throw new ProblemError(403, ctx.problems.aboutBlank(403, 'Forbidden', `Only members of the community "${community.name}" (${communityId}) can post to it.`));
  }
  return community;
}

/** GET /2/communities/{id} with community.fields. */
export async function lookupCommunity(ctx: AppContext, view: View, id: string, selected: ReadonlySet<string>): Promise<Record<string, unknown>> {
  const community = await findCommunity(ctx.store.db, id);
  if (!community) throw notFound(ctx, id);
  const out: Record<string, unknown> = {};
  for (const [name, get] of Object.entries(communityFields)) {
    if (selected.has(name) || (COMMUNITY_DEFAULTS as readonly string[]).includes(name)) out[name] = get(community, view);
  }
  return out;
}

/** GET /2/communities/{id}/posts: the community's posts, newest first (public communities are readable by anyone). */
export async function communityPosts(ctx: AppContext, view: View, id: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  if (!(await findCommunity(ctx.store.db, id))) throw notFound(ctx, id);
  const rows = await listCommunityPosts(ctx.store.db, id, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (p) => p.id, { ids: (p) => p.id });
  return renderPosts(ctx, view, selection, items, meta);
}
