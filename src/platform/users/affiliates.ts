import type { PlatformContext } from '../context.js';
import { page } from '../../http/pagination.js';
import type { DbOrTx } from '../../store/store.js';
import type { ListRequest } from '../graph/query.js';
import { errorsOnly, renderUsers, type PageResult } from '../graph/render.js';
import { subjectUser } from '../graph/visibility.js';
import type { View } from '../view.js';
import { affiliatedUserIds, type UserRow } from './wire.js';

/**
 * GET /2/users/{id}/affiliates: the accounts whose affiliation badge names the organisation (their
 * `affiliation.user_id` holds its id), newest account first. The affiliation itself is the one
 * users.affiliation records, set by the platform (the admin interface's profile action, or
 * PATCH /2/users/me): one relation, read both ways, so the list and the badge never disagree.
 */
export async function affiliatesOf(ctx: PlatformContext, view: View, orgId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  const subject = await subjectUser(ctx, view, orgId);
  if (subject.problem) return errorsOnly(subject.problem);
  const rows = await listAffiliates(ctx.store.db, orgId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (u) => u.id);
  return renderUsers(ctx, view, selection, items, meta);
}

/**
 * Users affiliated with `orgId`, by id descending, after `after`. The JSON is narrowed in SQL by
 * the quoted id (ids are digits only, so the pattern needs no escaping) and checked exactly here,
 * reading on until `limit` rows pass.
 */
export async function listAffiliates(db: DbOrTx, orgId: string, limit: number, after?: string): Promise<UserRow[]> {
  const out: UserRow[] = [];
  let cursor = after;
  for (;;) {
    let q = db.selectFrom('users').selectAll().where('affiliation', 'like', `%"${orgId}"%`);
    if (cursor) q = q.where('id', '<', cursor);
    const rows = await q.orderBy('id', 'desc').limit(limit).execute();
    out.push(...rows.filter((u) => affiliatedUserIds(u).includes(orgId)));
    if (rows.length < limit || out.length >= limit) return out.slice(0, limit);
    cursor = rows[rows.length - 1].id;
  }
}
