import type { DmConversationTable, DmEventType, DmParticipantTable } from '../../store/schema-graph.js';
import type { DbOrTx } from '../../store/store.js';
import type { MediaRow } from '../media/wire.js';
import type { DmEventRow } from './wire.js';

export async function findConversation(db: DbOrTx, id: string): Promise<DmConversationTable | undefined> {
  return db.selectFrom('dm_conversations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Creates the conversation unless it exists (two first messages may race); true when new. */
export async function insertConversation(db: DbOrTx, row: DmConversationTable): Promise<boolean> {
  const result = await db.insertInto('dm_conversations').values(row).onConflict((oc) => oc.column('id').doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findParticipant(db: DbOrTx, conversationId: string, userId: string): Promise<DmParticipantTable | undefined> {
  return db.selectFrom('dm_participants').selectAll().where('conversation_id', '=', conversationId).where('user_id', '=', userId).executeTakeFirst();
}

/** Who takes part now (has not left). */
export async function activeParticipantIds(db: DbOrTx, conversationId: string): Promise<string[]> {
  const rows = await db.selectFrom('dm_participants').select('user_id').where('conversation_id', '=', conversationId).where('until_event_id', 'is', null).execute();
  return rows.map((r) => r.user_id);
}

/** Adds a participant, or brings back one who left, seeing events from `fromEventId` on. */
export async function joinParticipant(db: DbOrTx, conversationId: string, userId: string, fromEventId: string | null): Promise<void> {
  await db
    .insertInto('dm_participants')
    .values({ conversation_id: conversationId, user_id: userId, from_event_id: fromEventId, until_event_id: null, last_read_event_id: null })
    .onConflict((oc) => oc.columns(['conversation_id', 'user_id']).doUpdateSet({ from_event_id: fromEventId, until_event_id: null }))
    .execute();
}

export async function leaveParticipant(db: DbOrTx, conversationId: string, userId: string, leaveEventId: string): Promise<void> {
  await db.updateTable('dm_participants').set({ until_event_id: leaveEventId }).where('conversation_id', '=', conversationId).where('user_id', '=', userId).execute();
}

export async function setLastRead(db: DbOrTx, conversationId: string, userId: string, eventId: string): Promise<void> {
  await db.updateTable('dm_participants').set({ last_read_event_id: eventId }).where('conversation_id', '=', conversationId).where('user_id', '=', userId).execute();
}

export async function insertDmEvent(db: DbOrTx, row: DmEventRow): Promise<void> {
  await db.insertInto('dm_events').values(row).execute();
}

export async function softDeleteDmEvent(db: DbOrTx, id: string, at: string): Promise<boolean> {
  const result = await db.updateTable('dm_events').set({ deleted_at: at }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The DM events a user may see, newest first: of the conversations they take or took part in,
 * within their window there (from their join event, up to their leave event).
 */
export async function eventsVisibleTo(
  db: DbOrTx,
  userId: string,
  opts: { types: readonly DmEventType[]; conversationId?: string; eventId?: string; limit: number; after?: string },
): Promise<DmEventRow[]> {
  let q = db
    .selectFrom('dm_events as e')
    .innerJoin('dm_participants as p', 'p.conversation_id', 'e.conversation_id')
    .selectAll('e')
    .where('p.user_id', '=', userId)
    .where('e.deleted_at', 'is', null)
    .where('e.event_type', 'in', opts.types)
    .where((eb) => eb.or([eb('p.from_event_id', 'is', null), eb('e.id', '>=', eb.ref('p.from_event_id'))]))
    .where((eb) => eb.or([eb('p.until_event_id', 'is', null), eb('e.id', '<=', eb.ref('p.until_event_id'))]));
  if (opts.conversationId) q = q.where('e.conversation_id', '=', opts.conversationId);
  if (opts.eventId) q = q.where('e.id', '=', opts.eventId);
  if (opts.after) q = q.where('e.id', '<', opts.after);
  return q.orderBy('e.id', 'desc').limit(opts.limit).execute();
}

export async function findMediaByIds(db: DbOrTx, ids: readonly string[]): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('media').selectAll().where('id', 'in', ids).execute();
}

/** Records that `sourceId` DM-blocks `targetId`; false when it already did. */
export async function insertDmBlock(db: DbOrTx, sourceId: string, targetId: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('dm_blocks')
    .values({ source_user_id: sourceId, target_user_id: targetId, created_at: at })
    .onConflict((oc) => oc.columns(['source_user_id', 'target_user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteDmBlock(db: DbOrTx, sourceId: string, targetId: string): Promise<boolean> {
  const result = await db.deleteFrom('dm_blocks').where('source_user_id', '=', sourceId).where('target_user_id', '=', targetId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Of `others`, who DM-blocks `userId` or is DM-blocked by them, each with who blocks whom. */
export async function dmBlocksBetween(db: DbOrTx, userId: string, others: readonly string[]): Promise<Array<{ source_user_id: string; target_user_id: string }>> {
  if (others.length === 0) return [];
  return db
    .selectFrom('dm_blocks')
    .select(['source_user_id', 'target_user_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('source_user_id', '=', userId), eb('target_user_id', 'in', others)]),
        eb.and([eb('target_user_id', '=', userId), eb('source_user_id', 'in', others)]),
      ]),
    )
    .execute();
}
