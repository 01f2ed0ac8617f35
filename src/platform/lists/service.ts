import type { Caller, UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { selectFields } from '../../http/fields.js';
import { page, type PageMeta } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, type Problem, problems } from '../../http/problems.js';
import type { DbOrTx } from '../../store/store.js';
import { isBlocking } from '../blocks/store.js';
import { hydrate, type Selection } from '../expansions.js';
import { requireUser } from '../follows/service.js';
import { requireSelf, requireWriteAccess } from '../graph/access.js';
import { ALL_TIME } from '../timelines/store.js';
import { compositeKey, type ListRequest, type PageRequest, type TimePageRequest } from '../graph/query.js';
import { errorsOnly, renderPosts, renderUsers, type PageResult } from '../graph/render.js';
import { checkTier } from '../graph/tiers.js';
import { subjectUser } from '../graph/visibility.js';
import type { PostRow } from '../posts/wire.js';
import { byMembersOf, pagedPosts } from '../timelines/store.js';
import type { View } from '../view.js';
import {
  countOwnedLists,
  countPinnedLists,
  deleteListRow,
  deleteListUser,
  deletePin,
  findListsByIds,
  insertList,
  insertListUser,
  insertPin,
  listsOwnedBy,
  listsThrough,
  moveListCounters,
  updateListRow,
  usersOfList,
} from './store.js';
import { listDeclaration, listExpansions, type ListRow } from './wire.js';

/** Limits of the public platform's lists. */
export const LIST_LIMITS = { owned: 1000, members: 5000, pinned: 5 };

const canSee = (view: View, list: ListRow) => list.private === 0 || list.owner_id === view.viewerId;

/** A list a request names: absent, or private to someone else, is a problem for the caller to show. */
async function visibleList(db: DbOrTx, view: View, listId: string, parameter: string): Promise<{ list: ListRow; problem?: undefined } | { list?: undefined; problem: Problem }> {
  const [list] = await findListsByIds(db, [listId]);
  if (!list) return { problem: problems.resourceNotFound({ parameter, value: listId, resource_id: listId, resource_type: 'list' }) };
  if (!canSee(view, list)) return { problem: problems.notAuthorizedForResource({ value: listId, resource_id: listId, resource_type: 'list', section: 'data', parameter }) };
  return { list };
}

/** The list a write names: 404 when absent, 403 when private to someone else. */
async function requireList(db: DbOrTx, view: View, listId: string, parameter: string): Promise<ListRow> {
  const found = await visibleList(db, view, listId, parameter);
  if (found.problem) throw new ProblemError(found.problem.type.endsWith('resource-not-found') ? 404 : 403, found.problem);
  return found.list!;
}

/** The list an owner-only write names. */
async function requireOwnList(ctx: PlatformContext, db: DbOrTx, caller: UserCaller, listId: string): Promise<ListRow> {
  const list = await requireList(db, { viewerId: caller.user.id, now: ctx.clock.now() }, listId, 'id');
  if (list.owner_id !== caller.user.id) {
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `Only the owner of list ${listId} can change it.`));
  }
  return list;
}

export interface ListChanges {
  name?: string;
  description?: string;
  private?: boolean;
}

function checkName(name: string | undefined): void {
  if (name !== undefined && name.trim().length === 0) throw invalidParameter('name', [name], 'The `name` body field can not be blank');
}

/** Stores a new list of `ownerId`. */
export async function recordList(ctx: PlatformContext, db: DbOrTx, ownerId: string, body: ListChanges & { name: string }): Promise<ListRow> {
  const now = ctx.clock.now().toISOString();
  const row: ListRow = {
    id: ctx.ids.next(),
    owner_id: ownerId,
    name: body.name,
    description: body.description ?? '',
    private: body.private ? 1 : 0,
    member_count: 0,
    follower_count: 0,
    created_at: now,
    updated_at: now,
  };
  await insertList(db, row);
  return row;
}

/** Adds a member (table list_members) or a follower (list_followers) with the counters they move. */
export async function recordListUser(ctx: PlatformContext, db: DbOrTx, table: 'list_members' | 'list_followers', listId: string, userId: string): Promise<boolean> {
  if (!(await insertListUser(db, table, ctx.ids.next(), listId, userId, ctx.clock.now().toISOString()))) return false;
  await moveListCounters(db, table, listId, userId, 1);
  return true;
}

/** POST /2/lists. */
export async function createList(ctx: PlatformContext, caller: UserCaller, body: ListChanges & { name: string }): Promise<{ id: string; name: string }> {
  requireWriteAccess(caller);
  checkName(body.name);
  return ctx.store.db.transaction().execute(async (tx) => {
    if ((await countOwnedLists(tx, caller.user.id)) >= LIST_LIMITS.owned) {
      throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `A user can own at most ${LIST_LIMITS.owned} lists.`));
    }
    const row = await recordList(ctx, tx, caller.user.id, body);
    return { id: row.id, name: row.name };
  });
}

/** PUT /2/lists/{id}: the owner changes name, description or privacy. */
export async function updateList(ctx: PlatformContext, caller: UserCaller, listId: string, body: ListChanges): Promise<{ updated: boolean }> {
  requireWriteAccess(caller);
  checkName(body.name);
  await ctx.store.db.transaction().execute(async (tx) => {
    await requireOwnList(ctx, tx, caller, listId);
    await updateListRow(tx, listId, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.private !== undefined ? { private: body.private ? 1 : 0 } : {}),
      updated_at: ctx.clock.now().toISOString(),
    });
  });
  return { updated: true };
}

/** DELETE /2/lists/{id}. */
export async function deleteList(ctx: PlatformContext, caller: UserCaller, listId: string): Promise<{ deleted: boolean }> {
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    await requireOwnList(ctx, tx, caller, listId);
    await deleteListRow(tx, listId);
  });
  return { deleted: true };
}

/** POST /2/lists/{id}/members: the owner adds a user; a user who blocks the owner cannot be added. */
export async function addMember(ctx: PlatformContext, caller: UserCaller, listId: string, userId: string): Promise<{ is_member: boolean }> {
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    const list = await requireOwnList(ctx, tx, caller, listId);
    await requireUser(tx, userId, 'user_id');
    if (await isBlocking(tx, userId, caller.user.id)) {
      throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', 'This user has blocked you: you cannot add them to a list.'));
    }
    if (list.member_count >= LIST_LIMITS.members) {
      throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `A list can have at most ${LIST_LIMITS.members} members.`));
    }
    await recordListUser(ctx, tx, 'list_members', listId, userId);
  });
  return { is_member: true };
}

/** DELETE /2/lists/{id}/members/{user_id}. */
export async function removeMember(ctx: PlatformContext, caller: UserCaller, listId: string, userId: string): Promise<{ is_member: boolean }> {
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    await requireOwnList(ctx, tx, caller, listId);
    if (await deleteListUser(tx, 'list_members', listId, userId)) await moveListCounters(tx, 'list_members', listId, userId, -1);
  });
  return { is_member: false };
}

/** POST /2/users/{id}/followed_lists (a list-follows endpoint: gone from basic and pro). */
export async function followList(ctx: PlatformContext, caller: UserCaller, userId: string, listId: string): Promise<{ following: boolean }> {
  requireSelf(caller, userId, 'id', 'follow lists on behalf');
  requireWriteAccess(caller);
  checkTier(ctx, caller, 'listFollows');
  await ctx.store.db.transaction().execute(async (tx) => {
    await requireList(tx, { viewerId: userId, now: ctx.clock.now() }, listId, 'list_id');
    await recordListUser(ctx, tx, 'list_followers', listId, userId);
  });
  return { following: true };
}

/** DELETE /2/users/{id}/followed_lists/{list_id}. */
export async function unfollowList(ctx: PlatformContext, caller: UserCaller, userId: string, listId: string): Promise<{ following: boolean }> {
  requireSelf(caller, userId, 'id', 'unfollow lists on behalf');
  requireWriteAccess(caller);
  checkTier(ctx, caller, 'listFollows');
  await ctx.store.db.transaction().execute(async (tx) => {
    if (await deleteListUser(tx, 'list_followers', listId, userId)) await moveListCounters(tx, 'list_followers', listId, userId, -1);
  });
  return { following: false };
}

/** POST /2/users/{id}/pinned_lists: at most five pinned lists. */
export async function pinList(ctx: PlatformContext, caller: UserCaller, userId: string, listId: string): Promise<{ pinned: boolean }> {
  requireSelf(caller, userId, 'id', 'pin lists on behalf');
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    await requireList(tx, { viewerId: userId, now: ctx.clock.now() }, listId, 'list_id');
    const pinned = await countPinnedLists(tx, userId);
    if (!(await insertPin(tx, ctx.ids.next(), userId, listId, ctx.clock.now().toISOString()))) return;
    if (pinned >= LIST_LIMITS.pinned) {
      throw invalidParameter('list_id', [listId], `You can pin at most ${LIST_LIMITS.pinned} lists; unpin one first.`);
    }
  });
  return { pinned: true };
}

/** DELETE /2/users/{id}/pinned_lists/{list_id}. */
export async function unpinList(ctx: PlatformContext, caller: UserCaller, userId: string, listId: string): Promise<{ pinned: boolean }> {
  requireSelf(caller, userId, 'id', 'unpin lists on behalf');
  requireWriteAccess(caller);
  await ctx.store.db.transaction().execute((tx) => deletePin(tx, userId, listId));
  return { pinned: false };
}

/** The selection of list objects: list.fields, and what their expansions include. */
export interface ListSelection {
  list: ReadonlySet<string>;
  rest: Selection;
}

async function renderLists(ctx: PlatformContext, view: View, selection: ListSelection, rows: readonly ListRow[], meta?: PageMeta): Promise<PageResult> {
  const hydrated = await hydrate(ctx, view, rows, listExpansions, selection.rest);
  return {
    data: rows.map((l) => selectFields(listDeclaration, l, selection.list, hydrated.view)),
    includes: hydrated.includes,
    errors: hydrated.errors,
    meta,
  };
}

/** GET /2/lists/{id}: a private list only for its owner (not-authorized-for-resource otherwise). */
export async function lookupList(ctx: PlatformContext, view: View, listId: string, selection: ListSelection): Promise<PageResult> {
  const found = await visibleList(ctx.store.db, view, listId, 'id');
  if (found.problem) return errorsOnly(found.problem);
  return renderLists(ctx, view, selection, [found.list]);
}

/** GET /2/lists/{id}/members and /followers, newest first. */
export async function usersOf(ctx: PlatformContext, caller: Caller, view: View, listId: string, table: 'list_members' | 'list_followers', { selection, page: request }: ListRequest): Promise<PageResult> {
  if (table === 'list_followers') checkTier(ctx, caller, 'listFollows');
  const found = await visibleList(ctx.store.db, view, listId, 'id');
  if (found.problem) return errorsOnly(found.problem);
  const rows = await usersOfList(ctx.store.db, table, listId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderUsers(ctx, view, selection, items, meta);
}

/** GET /2/lists/{id}/posts: the members' posts, newest first. */
export async function listPosts(ctx: PlatformContext, view: View, listId: string, { selection, page: request }: ListRequest<TimePageRequest>): Promise<PageResult> {
  const found = await visibleList(ctx.store.db, view, listId, 'id');
  if (found.problem) return errorsOnly(found.problem);
  const rows = await pagedPosts(ctx.store.db, byMembersOf(listId), ALL_TIME, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (p: PostRow) => compositeKey(p.created_at, p.id));
  return renderPosts(ctx, view, selection, items, meta);
}

export type UserListsKind = 'owned' | 'followed' | 'memberships' | 'pinned';

/**
 * GET /2/users/{id}/owned_lists, /followed_lists, /list_memberships and /pinned_lists. Private
 * lists appear only to their owner; pinned lists are the authenticated user's own and unpaged.
 */
export async function listsOfUser(ctx: PlatformContext, caller: Caller, view: View, userId: string, kind: Exclude<UserListsKind, 'pinned'>, request: ListRequest<PageRequest, ListSelection>): Promise<PageResult> {
  if (kind === 'followed') checkTier(ctx, caller, 'listFollows');
  return userLists(ctx, view, userId, kind, request);
}

export async function pinnedListsOf(ctx: PlatformContext, caller: UserCaller, view: View, userId: string, selection: ListSelection): Promise<PageResult> {
  requireSelf(caller, userId, 'id', 'read the pinned lists');
  return userLists(ctx, view, userId, 'pinned', { selection, page: { maxResults: LIST_LIMITS.pinned } });
}

async function userLists(ctx: PlatformContext, view: View, userId: string, kind: UserListsKind, { selection, page: request }: ListRequest<PageRequest, ListSelection>): Promise<PageResult> {
  const after = request.after;
  const subject = await subjectUser(ctx, view, userId);
  if (subject.problem) return errorsOnly(subject.problem);
  const db = ctx.store.db;
  const limit = request.maxResults + 1;
  const rows =
    kind === 'owned'
      ? await listsOwnedBy(db, userId, view.viewerId, limit, after)
      : await listsThrough(db, kind === 'followed' ? 'list_followers' : kind === 'memberships' ? 'list_members' : 'pinned_lists', userId, view.viewerId, limit, after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.relation_id);
  return renderLists(ctx, view, selection, items, kind === 'pinned' ? { result_count: meta.result_count } : meta);
}
