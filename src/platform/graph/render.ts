import type { PlatformContext } from '../context.js';
import { selectFields } from '../../http/fields.js';
import type { PageMeta } from '../../http/pagination.js';
import type { WireItem } from '../../http/json-body.js';
import type { Problem } from '../../http/problems.js';
import { hiddenPosts, hydrate, ResponseReads, type Includes, type Selection } from '../expansions.js';
import { postExpansions } from '../posts/service.js';
import type { PostRow } from '../posts/wire.js';
import { userExpansions } from '../users/service.js';
import { userDeclaration, type UserRow } from '../users/wire.js';
import type { View } from '../view.js';
import { recordImpressions } from '../analytics/recording.js';
import { countPostsRead } from '../usage/post-reads.js';
import { problems } from '../../http/problems.js';

/** One page of a list endpoint, before `pageBody` drops its empty parts. */
export interface PageResult {
  data: WireItem[];
  includes?: Includes;
  errors: Problem[];
  meta?: PageMeta;
}

/**
 * Posts of a timeline or list: a protected author's posts only for the author and approved
 * followers; every other one leaves `data` and becomes a not-authorized-for-resource item.
 */
export async function renderPosts(ctx: PlatformContext, view: View, selection: Selection, rows: readonly PostRow[], meta?: PageMeta, reads = new ResponseReads(ctx)): Promise<PageResult> {
  reads.holdPosts(rows);
  const hidden = await hiddenPosts(ctx, view, rows, reads);
  const errors: Problem[] = [...hidden].map((id) =>
    problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'data', parameter: 'id' }),
  );
  const visible = rows.filter((p) => !hidden.has(p.id));
  const hydrated = await hydrate(ctx, view, visible, postExpansions, selection, [], reads);
  recordImpressions(ctx, view.viewerId, visible);
  countPostsRead(ctx, view.appId, visible);
  return {
    data: visible.map(hydrated.post),
    includes: hydrated.includes,
    errors: [...errors, ...hydrated.errors],
    meta: meta && visibleMeta(meta, visible),
  };
}

/** result_count, newest_id and oldest_id count what `data` holds; next_token still continues after the page. */
function visibleMeta(meta: PageMeta, visible: readonly PostRow[]): PageMeta {
  const out: PageMeta = { ...meta, result_count: visible.length };
  if ('newest_id' in meta) {
    delete out.newest_id;
    delete out.oldest_id;
    if (visible.length > 0) Object.assign(out, { newest_id: visible[0].id, oldest_id: visible[visible.length - 1].id });
  }
  return out;
}

/** Users of a list endpoint (followers, members, search...), with connection_status on the primaries too. */
export async function renderUsers(ctx: PlatformContext, view: View, selection: Selection, rows: readonly UserRow[], meta?: PageMeta): Promise<PageResult> {
  const hydrated = await hydrate(ctx, view, rows, userExpansions, selection, rows.map((u) => u.id));
  return {
    data: rows.map(hydrated.user),
    includes: hydrated.includes,
    errors: hydrated.errors,
    meta,
  };
}

/** A list endpoint whose parent (a user, a post, a list) the viewer may not see or that does not exist: errors only. */
export function errorsOnly(...errors: Problem[]): PageResult {
  return { data: [], errors };
}

/** The wire user carried in event payloads: the public profile, never private fields. */
const EVENT_USER_FIELDS = new Set([
  'id', 'name', 'username', 'created_at', 'description', 'location', 'url', 'profile_image_url', 'protected', 'verified',
  'verified_type', 'subscription_type', 'public_metrics', 'pinned_post_id', 'affiliation', 'entities',
]);

export function eventUser(ctx: PlatformContext, row: UserRow): Record<string, unknown> {
  return selectFields(userDeclaration, row, EVENT_USER_FIELDS, { now: ctx.clock.now() });
}
