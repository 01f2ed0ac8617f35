import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { selectFields } from '../../http/fields.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, type Problem, problems } from '../../http/problems.js';
import { alphanumeric } from '../../store/ids.js';
import { toJson, type DbOrTx } from '../../store/store.js';
import { hydrate, type Selection } from '../expansions.js';
import { requireWriteAccess } from '../graph/access.js';
import { ALL_TIME } from '../timelines/store.js';
import { compositeKey, type ListRequest, type TimePageRequest } from '../graph/query.js';
import { errorsOnly, renderPosts, renderUsers, type PageResult } from '../graph/render.js';
import type { PostRow } from '../posts/wire.js';
import { pagedPosts } from '../timelines/store.js';
import { page } from '../../http/pagination.js';
import { findUsersByIds } from '../users/store.js';
import type { View } from '../view.js';
import { findSpacesByIds, insertSpace, insertSpaceTicket, linkingSpace, searchSpaces, spaceBuyers, spacesByCreators, updateSpace } from './store.js';
import { hostIdsOf, spaceDeclaration, spaceExpansions, type SpaceRow } from './wire.js';

/** The selection of space objects: space.fields, and what their expansions include. */
export interface SpaceSelection {
  space: ReadonlySet<string>;
  rest: Selection;
}

async function renderSpaces(ctx: PlatformContext, view: View, selection: SpaceSelection, rows: readonly SpaceRow[], errors: Problem[] = [], meta?: { result_count: number }): Promise<PageResult> {
  const hydrated = await hydrate(ctx, view, rows, spaceExpansions, selection.rest);
  return {
    data: rows.map((s) => selectFields(spaceDeclaration, s, selection.space, hydrated.view)),
    includes: hydrated.includes,
    errors: [...errors, ...hydrated.errors],
    meta,
  };
}

/** Every field of a space: what spaces.start and spaces.end carry, and what a write answers. */
const allFields = (ctx: PlatformContext, row: SpaceRow) => selectFields(spaceDeclaration, row, new Set(Object.keys(spaceDeclaration.fields)), { now: ctx.clock.now() });

export interface NewSpace {
  title: string;
  scheduled_start?: string;
  lang?: string;
  is_ticketed?: boolean;
  host_ids?: string[];
  speaker_ids?: string[];
  invited_user_ids?: string[];
}

async function requireUsers(db: DbOrTx, ids: string[], parameter: string): Promise<void> {
  const found = new Set((await findUsersByIds(db, ids)).map((u) => u.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing) throw new ProblemError(404, problems.resourceNotFound({ parameter, value: missing, resource_id: missing, resource_type: 'user' }));
}

/**
 * Creating a space (Plaza's POST /2/spaces; the public platform has no such endpoint): with a
 * scheduled_start in the future it is scheduled; without one it goes live at once (spaces.start).
 */
export async function createSpace(ctx: PlatformContext, caller: UserCaller, body: NewSpace): Promise<Record<string, unknown>> {
  requireWriteAccess(caller);
  const now = ctx.clock.now();
  let scheduled: string | undefined;
  if (body.scheduled_start !== undefined) {
    const at = new Date(body.scheduled_start);
    if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(body.scheduled_start)) {
      throw invalidParameter('scheduled_start', [body.scheduled_start], 'The `scheduled_start` body field must be an RFC 3339 date-time');
    }
    if (at <= now) throw invalidParameter('scheduled_start', [body.scheduled_start], 'The `scheduled_start` body field must be in the future');
    scheduled = at.toISOString();
  }
  if (body.title.trim().length === 0) throw invalidParameter('title', [body.title], 'The `title` body field can not be blank');
  return ctx.store.db.transaction().execute(async (tx) => allFields(ctx, await recordSpace(ctx, tx, caller.user.id, { ...body, scheduled_start: scheduled })));
}

/** Stores a space (scheduled when `scheduled_start` is given, live otherwise, with spaces.start). */
export async function recordSpace(ctx: PlatformContext, db: DbOrTx, creatorId: string, body: NewSpace): Promise<SpaceRow> {
  const now = ctx.clock.now();
  const unique = (ids: string[] | undefined) => [...new Set(ids ?? [])];
  const hosts = unique([creatorId, ...(body.host_ids ?? [])]);
  await requireUsers(db, hosts, 'host_ids');
  await requireUsers(db, unique(body.speaker_ids), 'speaker_ids');
  await requireUsers(db, unique(body.invited_user_ids), 'invited_user_ids');
  const scheduled = body.scheduled_start;
  const row: SpaceRow = {
    id: `1${alphanumeric(12)}`,
    creator_id: creatorId,
    title: body.title,
    state: scheduled ? 'scheduled' : 'live',
    lang: body.lang ?? 'en',
    is_ticketed: body.is_ticketed ? 1 : 0,
    host_ids: toJson(hosts),
    speaker_ids: toJson(unique(body.speaker_ids)),
    invited_user_ids: toJson(unique(body.invited_user_ids)),
    topic_ids: '[]',
    participant_count: 0,
    subscriber_count: 0,
    scheduled_start: scheduled ?? null,
    started_at: scheduled ? null : now.toISOString(),
    ended_at: null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await insertSpace(db, row);
  if (row.state === 'live') await appendEvent(ctx, db, { type: 'spaces.start', subject: row.id, payload: allFields(ctx, row) });
  return row;
}

/** Starting a scheduled space, or ending a live one: its creator or a host; spaces.start / spaces.end. */
export async function moveSpace(ctx: PlatformContext, caller: UserCaller, spaceId: string, to: 'live' | 'ended'): Promise<Record<string, unknown>> {
  requireWriteAccess(caller);
  return ctx.store.db.transaction().execute(async (tx) => {
    const [space] = await findSpacesByIds(tx, [spaceId]);
    if (!space) throw new ProblemError(404, problems.resourceNotFound({ parameter: 'id', value: spaceId, resource_id: spaceId, resource_type: 'space' }));
    if (space.creator_id !== caller.user.id && !hostIdsOf(space).includes(caller.user.id)) {
      throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `Only the creator or a host of space ${spaceId} can ${to === 'live' ? 'start' : 'end'} it.`));
    }
    const from = to === 'live' ? 'scheduled' : 'live';
    if (space.state !== from) {
      throw new ProblemError(409, problems.aboutBlank(409, 'Conflict', `Space ${spaceId} is ${space.state}; only a ${from} space can be ${to === 'live' ? 'started' : 'ended'}.`));
    }
    const now = ctx.clock.now().toISOString();
    const changes: Partial<SpaceRow> = to === 'live' ? { state: 'live', started_at: now, updated_at: now } : { state: 'ended', ended_at: now, updated_at: now };
    await updateSpace(tx, spaceId, changes);
    const row = { ...space, ...changes };
    await appendEvent(ctx, tx, { type: to === 'live' ? 'spaces.start' : 'spaces.end', subject: spaceId, payload: allFields(ctx, row) });
    return allFields(ctx, row);
  });
}

/** GET /2/spaces/{id} and /2/spaces?ids: found spaces in request order, resource-not-found per miss. */
export async function lookupSpaces(ctx: PlatformContext, view: View, ids: readonly string[], parameter: 'id' | 'ids', selection: SpaceSelection): Promise<PageResult> {
  const rows = await findSpacesByIds(ctx.store.db, ids);
  const byId = new Map(rows.map((s) => [s.id, s]));
  const errors: Problem[] = [];
  const found: SpaceRow[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (row) found.push(row);
    else errors.push(problems.resourceNotFound({ parameter, value: id, resource_id: id, resource_type: 'space' }));
  }
  return renderSpaces(ctx, view, selection, found, errors);
}

/** GET /2/spaces/by/creator_ids: live and scheduled spaces of these users. */
export async function spacesOfCreators(ctx: PlatformContext, view: View, userIds: readonly string[], selection: SpaceSelection): Promise<PageResult> {
  const rows = await spacesByCreators(ctx.store.db, userIds);
  return renderSpaces(ctx, view, selection, rows, [], { result_count: rows.length });
}

const SEARCH_STATES = { live: ['live'], scheduled: ['scheduled'], all: ['live', 'scheduled'] } as const;

/** A spaces search, parsed by its route. */
export interface SpaceSearch {
  /** Every one must be in the title (at most 50). */
  words: readonly string[];
  state: keyof typeof SEARCH_STATES;
  maxResults: number;
  selection: SpaceSelection;
}

/** GET /2/spaces/search: live and/or scheduled spaces whose title holds every word of the query. */
export async function findSpaces(ctx: PlatformContext, view: View, { words, state, maxResults, selection }: SpaceSearch): Promise<PageResult> {
  const rows = await searchSpaces(ctx.store.db, words, SEARCH_STATES[state], maxResults);
  return renderSpaces(ctx, view, selection, rows, [], { result_count: rows.length });
}

const spaceNotFound = (id: string) => problems.resourceNotFound({ parameter: 'id', value: id, resource_id: id, resource_type: 'space' });

/** GET /2/spaces/{id}/posts: the posts shared in the space (those linking to it), newest first, rendered as every post list. */
export async function postsOfSpace(ctx: PlatformContext, view: View, spaceId: string, { selection, page: request }: ListRequest<TimePageRequest>): Promise<PageResult> {
  const [space] = await findSpacesByIds(ctx.store.db, [spaceId]);
  if (!space) return errorsOnly(spaceNotFound(spaceId));
  const rows = await pagedPosts(ctx.store.db, linkingSpace(spaceId, ctx.store.dialect), ALL_TIME, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (p: PostRow) => compositeKey(p.created_at, p.id));
  return renderPosts(ctx, view, selection, items, meta);
}

/** GET /2/spaces/{id}/buyers: who bought tickets to the space, newest purchase first; only its creator may see them. */
export async function buyersOfSpace(ctx: PlatformContext, caller: UserCaller, view: View, spaceId: string, { selection, page: request }: ListRequest): Promise<PageResult> {
  const [space] = await findSpacesByIds(ctx.store.db, [spaceId]);
  if (!space) return errorsOnly(spaceNotFound(spaceId));
  if (space.creator_id !== caller.user.id) {
    throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `Only the creator of space ${spaceId} can see who bought tickets to it.`));
  }
  const rows = await spaceBuyers(ctx.store.db, spaceId, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (r) => r.ticket_id);
  return renderUsers(ctx, view, selection, items, meta);
}

/**
 * A ticket bought by a user (the public platform sells them in its own client; no interface
 * operation does): only to a ticketed space that has not ended, not by its creator or a host, once.
 */
export async function buySpaceTicket(ctx: PlatformContext, userId: string, spaceId: string): Promise<{ bought: boolean }> {
  return ctx.store.db.transaction().execute(async (tx) => {
    const [space] = await findSpacesByIds(tx, [spaceId]);
    if (!space) throw new ProblemError(404, spaceNotFound(spaceId));
    await requireUsers(tx, [userId], 'user_id');
    if (space.is_ticketed !== 1) throw new ProblemError(409, problems.aboutBlank(409, 'Conflict', `Space ${spaceId} is not ticketed.`));
    if (space.state === 'ended') throw new ProblemError(409, problems.aboutBlank(409, 'Conflict', `Space ${spaceId} has ended.`));
    if (space.creator_id === userId || hostIdsOf(space).includes(userId)) {
      throw new ProblemError(409, problems.aboutBlank(409, 'Conflict', `The creator and hosts of space ${spaceId} need no ticket.`));
    }
    const bought = await insertSpaceTicket(tx, { id: ctx.ids.next(), space_id: spaceId, user_id: userId, created_at: ctx.clock.now().toISOString() });
    if (!bought) throw new ProblemError(409, problems.aboutBlank(409, 'Conflict', `User ${userId} already holds a ticket to space ${spaceId}.`));
    return { bought };
  });
}
