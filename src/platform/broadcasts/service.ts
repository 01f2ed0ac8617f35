import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { decodePageToken, encodePageToken } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import { alphanumeric } from '../../store/ids.js';
import type { DbOrTx } from '../../store/store.js';
import { requireWriteAccess } from '../graph/access.js';
import { anyDueAnnouncement, blocks, broadcastsOfOwner, claimDue, deleteBroadcasts, findBroadcast, insertBroadcasts, insertChat, laterInSeries, mediaOwnedBy, updateBroadcast } from './store.js';
import { broadcastObject, stateOf, type BroadcastRow, type BroadcastWire } from './wire.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const PERIOD_MS = { Daily: DAY_MS, Weekly: 7 * DAY_MS } as const;
/** The most occurrences one recurring series may hold (the reference gives no bound). */
export const MAX_REPEATS = 100;
export const BROADCAST_LIST_RANGE = { min: 1, max: 100, default: 100 } as const;

/** The schedule fields shared by create and update (times are decimal strings of epoch milliseconds). */
export interface ScheduleFields {
  source_id?: string;
  scheduled_start_ms: string;
  scheduled_end_ms: string;
  title?: string;
  description?: string;
  locale?: string;
  chat_option?: string;
  thumbnail_media_id?: string;
  available_for_replay?: boolean;
  is_locked?: boolean;
  manual_publish?: boolean;
}

export interface NewBroadcast extends ScheduleFields {
  source_id: string;
  telecast_id?: string;
  recurrence?: { frequency: 'Daily' | 'Weekly'; repeats: string };
}

export interface BroadcastUpdate extends ScheduleFields {
  scheduled_broadcast_id: string;
  roll_forward?: boolean;
}

export interface BroadcastListRequest {
  maxResults: number;
  oldestStart?: string;
  newestStart?: string;
  after?: { start: string; broadcastId: string };
}

const notFound = (id: string) => new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find scheduled broadcast with id: [${id}].`));
const conflict = (detail: string) => new ProblemError(409, problems.aboutBlank(409, 'Conflict', detail));

/** A decimal string of epoch milliseconds as an ISO time; anything else is a 400 naming `name`. */
function timeOf(name: string, ms: string): string {
  const n = Number(ms);
  const at = new Date(n);
  if (!/^[0-9]{1,19}$/.test(ms) || !Number.isSafeInteger(n) || Number.isNaN(at.getTime())) {
    throw invalidParameter(name, [ms], `The \`${name}\` value [${ms}] is not a time in milliseconds since the Unix epoch`);
  }
  return at.toISOString();
}

/** The start and end of a schedule: the start in the future by Plaza's clock, the end after it. */
function scheduleTimes(ctx: PlatformContext, body: ScheduleFields): { start: string; end: string } {
  const start = timeOf('scheduled_start_ms', body.scheduled_start_ms);
  const end = timeOf('scheduled_end_ms', body.scheduled_end_ms);
  if (start <= ctx.clock.now().toISOString()) {
    throw invalidParameter('scheduled_start_ms', [body.scheduled_start_ms], 'The `scheduled_start_ms` value must be in the future');
  }
  if (end <= start) throw invalidParameter('scheduled_end_ms', [body.scheduled_end_ms], 'The `scheduled_end_ms` value must be after `scheduled_start_ms`');
  return { start, end };
}

async function checkThumbnail(db: DbOrTx, caller: UserCaller, mediaId: string | undefined): Promise<void> {
  if (mediaId === undefined) return;
  if (!(await mediaOwnedBy(db, mediaId, caller.user.id))) {
    throw invalidParameter('thumbnail_media_id', [mediaId], `The \`thumbnail_media_id\` value [${mediaId}] is not media uploaded by the authenticated user`);
  }
}

function checkText(name: string, value: string | undefined): void {
  if (value !== undefined && value.trim().length === 0) throw invalidParameter(name, [value], `The \`${name}\` value can not be blank`);
}

/** The caller's own broadcast, or a 404: another user's schedule is not theirs to see. */
async function ownBroadcast(db: DbOrTx, caller: UserCaller, id: string): Promise<BroadcastRow> {
  const row = await findBroadcast(db, id);
  if (!row || row.owner_id !== caller.user.id) throw notFound(id);
  return row;
}

const newBroadcastId = () => `1${alphanumeric(12)}`;

/**
 * POST /2/broadcasts/scheduled: a one-off, or a recurring series of `repeats` occurrences (the
 * first at the given times, each next one a day or a week later), all sharing recurring_schedule_id.
 * Answers the first occurrence.
 */
export async function createBroadcast(ctx: PlatformContext, caller: UserCaller, body: NewBroadcast): Promise<BroadcastWire> {
  requireWriteAccess(caller);
  const { start, end } = scheduleTimes(ctx, body);
  checkText('source_id', body.source_id);
  checkText('title', body.title);
  let occurrences = 1;
  if (body.recurrence) {
    occurrences = Number(body.recurrence.repeats);
    if (!Number.isInteger(occurrences) || occurrences < 1 || occurrences > MAX_REPEATS) {
      throw invalidParameter('recurrence.repeats', [body.recurrence.repeats], `The \`recurrence.repeats\` value must be between 1 and ${MAX_REPEATS}`);
    }
  }
  const now = ctx.clock.now().toISOString();
  const seriesId = body.recurrence ? ctx.ids.next() : null;
  const period = body.recurrence ? PERIOD_MS[body.recurrence.frequency] : 0;
  const rows: BroadcastRow[] = [];
  for (let i = 0; i < occurrences; i++) {
    const shift = (iso: string) => new Date(new Date(iso).getTime() + i * period).toISOString();
    rows.push({
      broadcast_id: newBroadcastId(),
      scheduled_broadcast_id: ctx.ids.next(),
      owner_id: caller.user.id,
      recurring_schedule_id: seriesId,
      recurrence_frequency: body.recurrence?.frequency ?? null,
      source_id: body.source_id,
      title: body.title ?? null,
      description: body.description ?? null,
      locale: body.locale ?? null,
      chat_option: body.chat_option ?? null,
      telecast_id: body.telecast_id ?? null,
      thumbnail_media_id: body.thumbnail_media_id ?? null,
      available_for_replay: body.available_for_replay ? 1 : 0,
      is_locked: body.is_locked ? 1 : 0,
      manual_publish: body.manual_publish ? 1 : 0,
      scheduled_start: shift(start),
      scheduled_end: shift(end),
      live_at: null,
      start_announced_at: null,
      end_announced_at: null,
      created_at: now,
      updated_at: now,
    });
  }
  if (new Date(rows[rows.length - 1].scheduled_end).getFullYear() > 9999) {
    throw invalidParameter('scheduled_end_ms', [body.scheduled_end_ms], 'The series ends too far in the future');
  }
  return ctx.store.db.transaction().execute(async (tx) => {
    await checkThumbnail(tx, caller, body.thumbnail_media_id);
    await insertBroadcasts(tx, rows);
    return broadcastObject(rows[0], ctx.clock.now());
  });
}

/** GET /2/broadcasts/scheduled/{id}: the caller's own broadcast, its state by the clock. */
export async function getBroadcast(ctx: PlatformContext, caller: UserCaller, id: string): Promise<BroadcastWire> {
  return broadcastObject(await ownBroadcast(ctx.store.db, caller, id), ctx.clock.now());
}

/** GET /2/broadcasts/scheduled: the caller's broadcasts, earliest start first. */
export async function listBroadcasts(ctx: PlatformContext, caller: UserCaller, request: BroadcastListRequest): Promise<{ data: BroadcastWire[]; meta: { result_count: number; next_token?: string } }> {
  const rows = await broadcastsOfOwner(ctx.store.db, caller.user.id, {
    oldestStart: request.oldestStart,
    newestStart: request.newestStart,
    after: request.after,
    limit: request.maxResults + 1,
  });
  const items = rows.slice(0, request.maxResults);
  const now = ctx.clock.now();
  const meta: { result_count: number; next_token?: string } = { result_count: items.length };
  const last = items[items.length - 1];
  if (rows.length > request.maxResults && last) meta.next_token = encodePageToken(`${last.scheduled_start} ${last.broadcast_id}`);
  return { data: items.map((r) => broadcastObject(r, now)), meta };
}

const LIST_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) ([a-zA-Z0-9]{1,13})$/;

/** The cursor of the list, from its pagination_token. */
export function parseBroadcastCursor(raw: unknown): BroadcastListRequest['after'] {
  const key = decodePageToken(raw);
  if (key === undefined) return undefined;
  const match = LIST_KEY.exec(key);
  if (!match) throw invalidParameter('pagination_token', [String(raw)], `The \`pagination_token\` query parameter value [${String(raw)}] is not a valid token`);
  return { start: match[1], broadcastId: match[2] };
}

/** oldest_start_time / newest_start_time: epoch milliseconds (as the schedule's times are) or RFC 3339. */
export function parseStartBound(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (/^[0-9]{1,19}$/.test(raw)) return timeOf(name, raw);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) && !Number.isNaN(new Date(raw).getTime())) return new Date(raw).toISOString();
  throw invalidParameter(name, [raw], `The \`${name}\` query parameter value [${raw}] is neither milliseconds since the Unix epoch nor an RFC 3339 date-time`);
}

/**
 * PUT /2/broadcasts/scheduled/{id}: replaces the schedule of a broadcast that has not started
 * (fields not re-sent are cleared; the bound source is kept when source_id is left out). With
 * roll_forward on an occurrence of a series, the later occurrences move by the same shift of
 * start and take the new duration, so the series follows its new head.
 */
export async function updateBroadcastSchedule(ctx: PlatformContext, caller: UserCaller, id: string, body: BroadcastUpdate): Promise<BroadcastWire> {
  requireWriteAccess(caller);
  const { start, end } = scheduleTimes(ctx, body);
  checkText('source_id', body.source_id);
  checkText('title', body.title);
  return ctx.store.db.transaction().execute(async (tx) => {
    const row = await ownBroadcast(tx, caller, id);
    if (body.scheduled_broadcast_id !== row.scheduled_broadcast_id) {
      throw invalidParameter('scheduled_broadcast_id', [body.scheduled_broadcast_id], `The \`scheduled_broadcast_id\` value [${body.scheduled_broadcast_id}] is not the scheduler id of broadcast ${id}`);
    }
    const now = ctx.clock.now();
    const state = stateOf(row, now);
    if (state !== 'Scheduled') throw conflict(`Broadcast ${id} is ${state}; only a broadcast that has not started can be rescheduled.`);
    await checkThumbnail(tx, caller, body.thumbnail_media_id);
    const changes: Partial<BroadcastRow> = {
      source_id: body.source_id ?? row.source_id,
      title: body.title ?? null,
      description: body.description ?? null,
      locale: body.locale ?? null,
      chat_option: body.chat_option ?? null,
      thumbnail_media_id: body.thumbnail_media_id ?? null,
      available_for_replay: body.available_for_replay ? 1 : 0,
      is_locked: body.is_locked ? 1 : 0,
      manual_publish: body.manual_publish ? 1 : 0,
      scheduled_start: start,
      scheduled_end: end,
      // Announced anew at its new times (a clock moved back can find a Scheduled one announced).
      start_announced_at: null,
      end_announced_at: null,
      updated_at: now.toISOString(),
    };
    await updateBroadcast(tx, id, changes);
    if (body.roll_forward && row.recurring_schedule_id) {
      const shift = new Date(start).getTime() - new Date(row.scheduled_start).getTime();
      const duration = new Date(end).getTime() - new Date(start).getTime();
      for (const later of await laterInSeries(tx, row.recurring_schedule_id, row.scheduled_start)) {
        // The head itself may already start later than it did: it was moved above.
        if (later.broadcast_id === id || stateOf(later, now) !== 'Scheduled') continue;
        const laterStart = new Date(new Date(later.scheduled_start).getTime() + shift);
        await updateBroadcast(tx, later.broadcast_id, {
          scheduled_start: laterStart.toISOString(),
          scheduled_end: new Date(laterStart.getTime() + duration).toISOString(),
          start_announced_at: null,
          end_announced_at: null,
          updated_at: now.toISOString(),
        });
      }
    }
    return broadcastObject({ ...row, ...changes }, now);
  });
}

/**
 * DELETE /2/broadcasts/scheduled/{id}: a one-off goes. An occurrence of a series goes with the
 * rest of the series after it (the recurring schedule stops there), unless roll_forward is true:
 * then only this occurrence goes and the series rolls forward to its next one. Deleting a running
 * broadcast ends it (broadcast.end).
 */
export async function deleteBroadcast(ctx: PlatformContext, caller: UserCaller, id: string, rollForward: boolean): Promise<{ deleted: boolean }> {
  requireWriteAccess(caller);
  return ctx.store.db.transaction().execute(async (tx) => {
    const row = await ownBroadcast(tx, caller, id);
    const now = ctx.clock.now();
    const doomed = [row];
    if (row.recurring_schedule_id && !rollForward) doomed.push(...(await laterInSeries(tx, row.recurring_schedule_id, row.scheduled_start)));
    for (const gone of doomed) {
      if (stateOf(gone, now) === 'Running') {
        await announce(ctx, tx, gone, now, 'Ended');
      }
    }
    await deleteBroadcasts(tx, doomed.map((r) => r.broadcast_id));
    return { deleted: true };
  });
}

/**
 * POST /2/broadcasts/scheduled/{id}/live: publishes a manual_publish broadcast that has not ended
 * (broadcast.start). One without manual_publish is published by the coordinator at its start, so
 * the call is refused, as the description says.
 */
export async function goLive(ctx: PlatformContext, caller: UserCaller, id: string): Promise<BroadcastWire> {
  requireWriteAccess(caller);
  return ctx.store.db.transaction().execute(async (tx) => {
    const row = await ownBroadcast(tx, caller, id);
    const now = ctx.clock.now();
    if (row.manual_publish !== 1) throw conflict(`Broadcast ${id} was not scheduled with manual_publish; it is published automatically at its start.`);
    const state = stateOf(row, now);
    if (state !== 'Scheduled') throw conflict(`Broadcast ${id} is ${state}; only a scheduled broadcast can go live.`);
    const changes = { live_at: now.toISOString(), start_announced_at: now.toISOString(), updated_at: now.toISOString() };
    await updateBroadcast(tx, id, changes);
    await announce(ctx, tx, { ...row, ...changes }, now, 'Running');
    return broadcastObject({ ...row, ...changes }, now);
  });
}

/**
 * POST /2/broadcasts/{id}/chat: a message from the caller to a running broadcast, stored, and a
 * broadcast.chat event about the broadcaster. A broadcast that has not started, has ended or is
 * gone refuses it, and so does one whose broadcaster blocks the caller.
 */
export async function sendChat(ctx: PlatformContext, caller: UserCaller, id: string, text: string): Promise<{ success: boolean; timestamp: string }> {
  requireWriteAccess(caller);
  if (text.trim().length === 0) throw invalidParameter('text', [text], 'The `text` value can not be blank');
  return ctx.store.db.transaction().execute(async (tx) => {
    const row = await findBroadcast(tx, id);
    if (!row) throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find broadcast with id: [${id}].`));
    const now = ctx.clock.now();
    const state = stateOf(row, now);
    if (state === 'Scheduled') throw conflict(`Broadcast ${id} is not live yet; chat opens when it goes live.`);
    if (state === 'Ended') throw conflict(`Broadcast ${id} has ended; its chat is closed.`);
    if (await blocks(tx, row.owner_id, caller.user.id)) {
      throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `You can not chat in broadcast ${id}: its broadcaster blocks you.`));
    }
    const chatId = ctx.ids.next();
    await insertChat(tx, { id: chatId, broadcast_id: id, user_id: caller.user.id, text, created_at: now.toISOString() });
    const timestamp = (BigInt(now.getTime()) * 1_000_000n).toString();
    await appendEvent(ctx, tx, { type: 'broadcast.chat', subject: row.owner_id, payload: { id: chatId, broadcast_id: id, user_id: row.owner_id, sender_id: caller.user.id, text, timestamp } });
    return { success: true, timestamp };
  });
}

/**
 * The coordinator's announcements, run on every tick of this process's workers: broadcast.start
 * for each broadcast published at its start (no manual_publish) once the clock has passed it, and
 * broadcast.end for each started broadcast (published either way) once the clock has passed its
 * end; each once, whichever process claims it. A broadcast whose whole window passed between two
 * ticks (a moved clock) gets both, in order. Returns how many were announced.
 */
export async function announceDueBroadcasts(ctx: PlatformContext): Promise<number> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  if (!(await anyDueAnnouncement(ctx.store.db, at))) return 0;
  return ctx.store.db.transaction().execute(async (tx) => {
    const started = await claimDue(tx, 'start', at);
    for (const row of started) await announce(ctx, tx, row, now, 'Running');
    const ended = await claimDue(tx, 'end', at);
    for (const row of ended) await announce(ctx, tx, row, now, 'Ended');
    return started.length + ended.length;
  });
}

/**
 * broadcast.start (the broadcast is now Running) or broadcast.end (Ended) about its broadcaster:
 * the broadcast object in that state, with the broadcaster's user_id.
 */
async function announce(ctx: PlatformContext, db: DbOrTx, row: BroadcastRow, now: Date, state: 'Running' | 'Ended'): Promise<void> {
  const type = state === 'Running' ? 'broadcast.start' : 'broadcast.end';
  await appendEvent(ctx, db, { type, subject: row.owner_id, payload: { ...broadcastObject(row, now), state, user_id: row.owner_id } });
}
