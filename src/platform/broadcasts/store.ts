import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../store/schema.js';
import type { DbOrTx } from '../../store/store.js';
import type { BroadcastChatTable } from '../../store/schema-broadcasts.js';
import type { BroadcastRow } from './wire.js';

export async function insertBroadcasts(db: DbOrTx, rows: readonly BroadcastRow[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('scheduled_broadcasts').values([...rows]).execute();
}

export async function findBroadcast(db: DbOrTx, broadcastId: string): Promise<BroadcastRow | undefined> {
  return db.selectFrom('scheduled_broadcasts').selectAll().where('broadcast_id', '=', broadcastId).executeTakeFirst();
}

export async function updateBroadcast(db: DbOrTx, broadcastId: string, changes: Partial<BroadcastRow>): Promise<void> {
  await db.updateTable('scheduled_broadcasts').set(changes).where('broadcast_id', '=', broadcastId).execute();
}

export async function deleteBroadcasts(db: DbOrTx, broadcastIds: readonly string[]): Promise<void> {
  if (broadcastIds.length > 0) await db.deleteFrom('scheduled_broadcasts').where('broadcast_id', 'in', broadcastIds).execute();
}

/** The occurrences of a series that start after `start`, earliest first. */
export async function laterInSeries(db: DbOrTx, seriesId: string, start: string): Promise<BroadcastRow[]> {
  return db
    .selectFrom('scheduled_broadcasts')
    .selectAll()
    .where('recurring_schedule_id', '=', seriesId)
    .where('scheduled_start', '>', start)
    .orderBy('scheduled_start')
    .orderBy('broadcast_id')
    .execute();
}

export interface OwnerPage {
  oldestStart?: string;
  newestStart?: string;
  after?: { start: string; broadcastId: string };
  limit: number;
}

/** The owner's broadcasts by start time (earliest first), within the start bounds (inclusive), after the cursor. */
export async function broadcastsOfOwner(db: DbOrTx, ownerId: string, p: OwnerPage): Promise<BroadcastRow[]> {
  let q = db.selectFrom('scheduled_broadcasts').selectAll().where('owner_id', '=', ownerId);
  if (p.oldestStart) q = q.where('scheduled_start', '>=', p.oldestStart);
  if (p.newestStart) q = q.where('scheduled_start', '<=', p.newestStart);
  const after = p.after;
  if (after) {
    q = q.where((eb) =>
      eb.or([eb('scheduled_start', '>', after.start), eb.and([eb('scheduled_start', '=', after.start), eb('broadcast_id', '>', after.broadcastId)])]),
    );
  }
  return q.orderBy('scheduled_start').orderBy('broadcast_id').limit(p.limit).execute();
}

export async function insertChat(db: DbOrTx, row: BroadcastChatTable): Promise<void> {
  await db.insertInto('broadcast_chats').values(row).execute();
}

export async function mediaOwnedBy(db: DbOrTx, mediaId: string, userId: string): Promise<boolean> {
  const row = await db.selectFrom('media').select('id').where('id', '=', mediaId).where('owner_user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

/** Whether `sourceId` blocks `targetId`. */
export async function blocks(db: DbOrTx, sourceId: string, targetId: string): Promise<boolean> {
  const row = await db.selectFrom('blocks').select('target_user_id').where('source_user_id', '=', sourceId).where('target_user_id', '=', targetId).executeTakeFirst();
  return row !== undefined;
}

type BroadcastsEb = ExpressionBuilder<Database, 'scheduled_broadcasts'>;
/**
 * A broadcast published at its start (no manual_publish) whose start has passed by `at` and was
 * not announced (index scheduled_broadcasts_unstarted: its conditions stated literally, as the
 * index does, so that the planner sees the index holds the rows).
 */
const startDue = (eb: BroadcastsEb, at: string) => eb.and([eb('start_announced_at', 'is', null), eb('manual_publish', '=', eb.lit(0)), eb('scheduled_start', '<=', at)]);
/** A started broadcast whose end has passed by `at` and was not announced (index scheduled_broadcasts_unended). */
const endDue = (eb: BroadcastsEb, at: string) => eb.and([eb('start_announced_at', 'is not', null), eb('end_announced_at', 'is', null), eb('scheduled_end', '<=', at)]);

/** What a claim marks and orders by: the start of broadcasts published at their start, or the end of started ones. */
const CLAIMS = {
  start: { due: startDue, mark: 'start_announced_at', time: 'scheduled_start' },
  end: { due: endDue, mark: 'end_announced_at', time: 'scheduled_end' },
} as const;

/**
 * Claims the broadcasts whose start (or end) is due by `at` (startDue, endDue): marks them
 * announced and returns them, earliest first. A row is claimed once, whichever process asks (the
 * update re-checks the mark under the row's lock).
 */
export async function claimDue(db: DbOrTx, which: keyof typeof CLAIMS, at: string): Promise<BroadcastRow[]> {
  const { due, mark, time } = CLAIMS[which];
  const rows = await db
    .updateTable('scheduled_broadcasts')
    .set({ [mark]: at })
    .where((eb) => due(eb, at))
    .returningAll()
    .execute();
  return rows.sort((a, b) => a[time].localeCompare(b[time]) || a.broadcast_id.localeCompare(b.broadcast_id));
}

/** Whether claimDue would claim anything at `at`: a read, so that a tick with nothing due takes no write lock. */
export async function anyDueAnnouncement(db: DbOrTx, at: string): Promise<boolean> {
  // One query per condition: each is answered by its own partial index.
  for (const { due } of Object.values(CLAIMS)) {
    if (await db.selectFrom('scheduled_broadcasts').select('broadcast_id').where((eb) => due(eb, at)).limit(1).executeTakeFirst()) return true;
  }
  return false;
}
