import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { selectFields } from '../../http/fields.js';
import { page } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { DmEventType } from '../../store/schema-graph.js';
import { toJson, type DbOrTx } from '../../store/store.js';
import { isBlocking } from '../blocks/store.js';
import { hydrate } from '../expansions.js';
import { requireDmAccess } from '../graph/access.js';
import type { ListRequest } from '../graph/query.js';
import { errorsOnly, type PageResult } from '../graph/render.js';
import { refuseSubtitleFile } from '../media/service.js';
import { parseEntities } from '../posts/entities.js';
import { findPostsByIds } from '../posts/store.js';
import { findUsersByIds } from '../users/store.js';
import type { View } from '../view.js';
import { requireNoDmBlock } from './blocking.js';
import { legacyMessage, legacySignal, legacyUsers } from './legacy.js';
import {
  activeParticipantIds,
  eventsVisibleTo,
  findConversation,
  findMediaByIds,
  findParticipant,
  insertConversation,
  insertDmEvent,
  joinParticipant,
  leaveParticipant,
  setLastRead,
  softDeleteDmEvent,
} from './store.js';
import { DM_EVENT_TYPES, dmEventDeclaration, dmEventExpansions, oneToOneId, type DmEventRow } from './wire.js';

/** Limits of the public platform's direct messages. */
export const DM_LIMITS = { text: 10_000, groupParticipants: 50 };

export interface NewMessage {
  text?: string;
  attachments?: Array<{ media_id: string }>;
}

export interface Sent {
  dm_conversation_id: string;
  dm_event_id: string;
}

const forbidden = (detail: string) => new ProblemError(403, problems.aboutBlank(403, 'Forbidden', detail));

/** A message needs text or an attachment (the reference's anyOf); text of at most 10,000 characters. */
function checkMessage(message: NewMessage, prefix = ''): void {
  const text = message.text;
  if ((text === undefined || text.length === 0) && !(message.attachments && message.attachments.length > 0)) {
    throw invalidParameter(`${prefix}text`, [], `A message needs \`${prefix}text\` or \`${prefix}attachments\``);
  }
  if (text !== undefined && [...text].length > DM_LIMITS.text) {
    throw invalidParameter(`${prefix}text`, [], `The \`${prefix}text\` body field is longer than ${DM_LIMITS.text} characters`);
  }
}

/** Post links in a message become referenced_posts, as a shared post does on the public platform. */
async function referencedPostsOf(db: DbOrTx, text: string | undefined): Promise<Array<{ id: string }>> {
  const ids = [...(text ?? '').matchAll(/https?:\/\/\S+?\/status(?:es)?\/([0-9]{1,19})/g)].map((m) => m[1]);
  const found = await findPostsByIds(db, [...new Set(ids)]);
  return found.map((p) => ({ id: p.id }));
}

/**
 * Stores a MessageCreate event and appends dm.sent (for the sender) and dm.received (for each
 * other participant), with the legacy payload `{direct_message_events, users}`.
 */
async function recordMessage(ctx: PlatformContext, db: DbOrTx, conversationId: string, senderId: string, message: NewMessage, oneToOne: boolean): Promise<string> {
  const mediaIds = (message.attachments ?? []).map((a) => a.media_id);
  const media = await findMediaByIds(db, mediaIds);
  for (const id of mediaIds) {
    const found = media.find((m) => m.id === id);
    if (!found) throw new ProblemError(404, problems.resourceNotFound({ parameter: 'media_id', value: id, resource_id: id, resource_type: 'media' }));
    if (found.owner_user_id !== senderId) {
      throw new ProblemError(403, problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'media', section: 'data', parameter: 'media_id' }));
    }
    refuseSubtitleFile('media_id', found);
  }
  const now = ctx.clock.now().toISOString();
  const event: DmEventRow = {
    id: ctx.ids.next(),
    conversation_id: conversationId,
    event_type: 'MessageCreate',
    sender_id: senderId,
    text: message.text ?? '',
    entities: toJson(parseEntities(message.text ?? '')),
    media_keys: toJson(media.map((m) => m.media_key)),
    referenced_posts: toJson(await referencedPostsOf(db, message.text)),
    participant_ids: null,
    created_at: now,
    deleted_at: null,
  };
  await insertDmEvent(db, event);
  const recipients = (await activeParticipantIds(db, conversationId)).filter((id) => id !== senderId);
  const users = legacyUsers(await findUsersByIds(db, [senderId, ...recipients]));
  await appendEvent(ctx, db, {
    type: 'dm.sent',
    subject: senderId,
    payload: { direct_message_events: [legacyMessage(event, media, oneToOne ? recipients[0] : undefined)], users },
  });
  for (const recipient of recipients) {
    await appendEvent(ctx, db, { type: 'dm.received', subject: recipient, payload: { direct_message_events: [legacyMessage(event, media, recipient)], users } });
  }
  return event.id;
}

/** Join and leave events carry participant_ids: only who joined or left (spec 000, Jun 3, 2025). */
async function recordMembership(ctx: PlatformContext, db: DbOrTx, conversationId: string, senderId: string, type: Exclude<DmEventType, 'MessageCreate'>, participantIds: string[]): Promise<string> {
  const event: DmEventRow = {
    id: ctx.ids.next(),
    conversation_id: conversationId,
    event_type: type,
    sender_id: senderId,
    text: null,
    entities: '{}',
    media_keys: '[]',
    referenced_posts: '[]',
    participant_ids: toJson(participantIds),
    created_at: ctx.clock.now().toISOString(),
    deleted_at: null,
  };
  await insertDmEvent(db, event);
  if (type === 'ParticipantsJoin') {
    // The Activity API's chat.conversation_join: participant_ids only on join and leave events,
    // listing only who joined (spec 000, Jun 3, 2025).
    await appendEvent(ctx, db, {
      type: 'chat.conversation_join',
      subject: senderId,
      payload: {
        direct_message_events: [{ type: 'participants_join', id: event.id, created_timestamp: String(Date.parse(event.created_at)), dm_conversation_id: conversationId, sender_id: senderId, participant_ids: participantIds }],
        users: legacyUsers(await findUsersByIds(db, [senderId, ...participantIds])),
      },
    });
  }
  return event.id;
}

async function requireRecipients(db: DbOrTx, senderId: string, ids: readonly string[], parameter: string): Promise<void> {
  const found = new Set((await findUsersByIds(db, ids)).map((u) => u.id));
  for (const id of ids) {
    if (!found.has(id)) throw new ProblemError(404, problems.resourceNotFound({ parameter, value: id, resource_id: id, resource_type: 'user' }));
    if (await isBlocking(db, id, senderId)) throw forbidden(`User ${id} has blocked you: you cannot send them messages.`);
  }
  await requireNoDmBlock(db, senderId, ids);
}

/** POST /2/dm_conversations/with/{participant_id}/messages: the one-to-one conversation, made on first use. */
export async function sendToParticipant(ctx: PlatformContext, caller: UserCaller, participantId: string, message: NewMessage): Promise<Sent> {
  requireDmAccess(caller);
  checkMessage(message);
  const senderId = caller.user.id;
  if (participantId === senderId) throw invalidParameter('participant_id', [participantId], 'You cannot send a direct message to yourself.');
  return ctx.store.db.transaction().execute(async (tx) => {
    await requireRecipients(tx, senderId, [participantId], 'participant_id');
    if (await isBlocking(tx, senderId, participantId)) throw forbidden(`You block user ${participantId}: unblock them to send messages.`);
    return recordDirectMessage(ctx, tx, senderId, participantId, message);
  });
}

/** Stores a message of the one-to-one conversation of two users, opening it on first use. */
export async function recordDirectMessage(ctx: PlatformContext, db: DbOrTx, senderId: string, participantId: string, message: NewMessage): Promise<Sent> {
  const conversationId = oneToOneId(senderId, participantId);
  if (await insertConversation(db, { id: conversationId, kind: 'one_to_one', creator_id: senderId, created_at: ctx.clock.now().toISOString() })) {
    await joinParticipant(db, conversationId, senderId, null);
    await joinParticipant(db, conversationId, participantId, null);
  }
  return { dm_conversation_id: conversationId, dm_event_id: await recordMessage(ctx, db, conversationId, senderId, message, true) };
}

/**
 * POST /2/dm_conversations: a group with the caller and 2 to 49 others. It opens with a
 * ParticipantsJoin event naming the invited participants, then the first message.
 */
export async function createGroup(ctx: PlatformContext, caller: UserCaller, participantIds: string[], message: NewMessage): Promise<Sent> {
  requireDmAccess(caller);
  checkMessage(message, 'message.');
  const senderId = caller.user.id;
  const others = [...new Set(participantIds)].filter((id) => id !== senderId);
  if (others.length < 2) throw invalidParameter('participant_ids', participantIds, 'A group conversation needs at least 2 participants besides you.');
  return ctx.store.db.transaction().execute(async (tx) => {
    await requireRecipients(tx, senderId, others, 'participant_ids');
    return recordGroup(ctx, tx, senderId, others, message);
  });
}

/** Stores a group conversation: a ParticipantsJoin event naming the invited participants, then the first message. */
export async function recordGroup(ctx: PlatformContext, db: DbOrTx, creatorId: string, others: string[], message: NewMessage): Promise<Sent> {
  const conversationId = ctx.ids.next();
  await insertConversation(db, { id: conversationId, kind: 'group', creator_id: creatorId, created_at: ctx.clock.now().toISOString() });
  for (const id of [creatorId, ...others]) await joinParticipant(db, conversationId, id, null);
  await recordMembership(ctx, db, conversationId, creatorId, 'ParticipantsJoin', others);
  return { dm_conversation_id: conversationId, dm_event_id: await recordMessage(ctx, db, conversationId, creatorId, message, false) };
}

/** The conversation a write names, which the caller takes part in now. */
async function requireActive(db: DbOrTx, conversationId: string, userId: string) {
  const [conversation, participant] = await Promise.all([findConversation(db, conversationId), findParticipant(db, conversationId, userId)]);
  if (!conversation || !participant || participant.until_event_id !== null) {
    throw forbidden(`You do not take part in a direct message conversation with dm_conversation_id: [${conversationId}].`);
  }
  return conversation;
}

/** POST /2/dm_conversations/{dm_conversation_id}/messages. */
export async function sendToConversation(ctx: PlatformContext, caller: UserCaller, conversationId: string, message: NewMessage): Promise<Sent> {
  requireDmAccess(caller);
  const senderId = caller.user.id;
  const pair = conversationId.split('-');
  if (pair.length === 2 && pair.includes(senderId)) {
    // A one-to-one conversation may be named before its first message, as the pair of its users.
    const other = pair[0] === senderId ? pair[1] : pair[0];
    if (oneToOneId(senderId, other) === conversationId) return sendToParticipant(ctx, caller, other, message);
  }
  checkMessage(message);
  return ctx.store.db.transaction().execute(async (tx) => {
    const conversation = await requireActive(tx, conversationId, senderId);
    return { dm_conversation_id: conversationId, dm_event_id: await recordMessage(ctx, tx, conversationId, senderId, message, conversation.kind === 'one_to_one') };
  });
}

/** Plaza's POST /2/dm_conversations/{id}/participants: a participant adds others to a group (ParticipantsJoin). */
export async function addParticipants(ctx: PlatformContext, caller: UserCaller, conversationId: string, participantIds: string[]): Promise<{ dm_event_id: string }> {
  requireDmAccess(caller);
  return ctx.store.db.transaction().execute(async (tx) => {
    const conversation = await requireActive(tx, conversationId, caller.user.id);
    if (conversation.kind !== 'group') throw invalidParameter('dm_conversation_id', [conversationId], 'Participants can only be added to group conversations.');
    const active = new Set(await activeParticipantIds(tx, conversationId));
    const joining = [...new Set(participantIds)].filter((id) => !active.has(id));
    if (joining.length === 0) throw invalidParameter('participant_ids', participantIds, 'Every user named already takes part in this conversation.');
    if (active.size + joining.length > DM_LIMITS.groupParticipants) {
      throw invalidParameter('participant_ids', participantIds, `A group conversation has at most ${DM_LIMITS.groupParticipants} participants.`);
    }
    await requireRecipients(tx, caller.user.id, joining, 'participant_ids');
    const eventId = await recordMembership(ctx, tx, conversationId, caller.user.id, 'ParticipantsJoin', joining);
    for (const id of joining) await joinParticipant(tx, conversationId, id, eventId);
    return { dm_event_id: eventId };
  });
}

/** Plaza's DELETE /2/dm_conversations/{id}/participants/{user_id}: the caller leaves a group (ParticipantsLeave). */
export async function leaveConversation(ctx: PlatformContext, caller: UserCaller, conversationId: string, userId: string): Promise<{ dm_event_id: string }> {
  requireDmAccess(caller);
  if (userId !== caller.user.id) throw forbidden('You can only remove yourself from a conversation: the `user_id` path parameter must be yours.');
  return ctx.store.db.transaction().execute(async (tx) => {
    const conversation = await requireActive(tx, conversationId, userId);
    if (conversation.kind !== 'group') throw invalidParameter('dm_conversation_id', [conversationId], 'Only group conversations can be left.');
    const eventId = await recordMembership(ctx, tx, conversationId, userId, 'ParticipantsLeave', [userId]);
    await leaveParticipant(tx, conversationId, userId, eventId);
    return { dm_event_id: eventId };
  });
}

/** Read receipts and typing indicators reach every other participant: one item each, in one event. */
async function signal(ctx: PlatformContext, db: DbOrTx, type: 'dm.read' | 'dm.indicate_typing', conversationId: string, userId: string, lastReadEventId?: string): Promise<void> {
  const others = (await activeParticipantIds(db, conversationId)).filter((id) => id !== userId);
  const at = ctx.clock.now().toISOString();
  const kind = type === 'dm.read' ? 'mark_read' : 'indicate_typing';
  await appendEvent(ctx, db, {
    type,
    subject: userId,
    payload: {
      direct_message_events: others.map((other) => legacySignal(kind, at, conversationId, userId, other, lastReadEventId)),
      users: legacyUsers(await findUsersByIds(db, [userId, ...others])),
    },
  });
}

/** Plaza's POST /2/dm_conversations/{id}/read: marks events up to last_read_event_id read (dm.read). */
export async function markRead(ctx: PlatformContext, caller: UserCaller, conversationId: string, lastReadEventId: string): Promise<{ success: boolean }> {
  requireDmAccess(caller);
  const userId = caller.user.id;
  await ctx.store.db.transaction().execute(async (tx) => {
    await requireActive(tx, conversationId, userId);
    const [event] = await eventsVisibleTo(tx, userId, { types: DM_EVENT_TYPES, conversationId, eventId: lastReadEventId, limit: 1 });
    if (!event) {
      throw invalidParameter('last_read_event_id', [lastReadEventId], `The \`last_read_event_id\` body field value [${lastReadEventId}] is not an event of this conversation`);
    }
    await setLastRead(tx, conversationId, userId, lastReadEventId);
    await signal(ctx, tx, 'dm.read', conversationId, userId, lastReadEventId);
  });
  return { success: true };
}

/** Plaza's POST /2/dm_conversations/{id}/typing: a typing indicator to the other participants (dm.indicate_typing). */
export async function indicateTyping(ctx: PlatformContext, caller: UserCaller, conversationId: string): Promise<{ success: boolean }> {
  requireDmAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    await requireActive(tx, conversationId, caller.user.id);
    await signal(ctx, tx, 'dm.indicate_typing', conversationId, caller.user.id);
  });
  return { success: true };
}

/** DELETE /2/dm_events/{event_id}: the sender deletes their message. */
export async function deleteDmEvent(ctx: PlatformContext, caller: UserCaller, eventId: string): Promise<{ deleted: boolean }> {
  requireDmAccess(caller);
  await ctx.store.db.transaction().execute(async (tx) => {
    const [event] = await eventsVisibleTo(tx, caller.user.id, { types: ['MessageCreate'], eventId, limit: 1 });
    if (!event || event.sender_id !== caller.user.id) throw forbidden(`You can only delete direct messages you sent; event_id [${eventId}] is not one.`);
    await softDeleteDmEvent(tx, eventId, ctx.clock.now().toISOString());
  });
  return { deleted: true };
}

/** A DM events request, parsed by its route: dm_event.fields, the selection, event_types (empty: all) and the page. */
export interface DmEventsRequest extends ListRequest {
  fields: ReadonlySet<string>;
  types: ReadonlySet<string>;
}

export type DmScope = { kind: 'all' } | { kind: 'conversation'; id: string } | { kind: 'participant'; id: string } | { kind: 'event'; id: string };

/**
 * GET /2/dm_events, /2/dm_conversations/{id}/dm_events, /with/{participant_id}/dm_events and
 * /2/dm_events/{event_id}: newest first, event_types filtered, dm_event.fields selected.
 */
export async function listDmEvents(ctx: PlatformContext, caller: UserCaller, view: View, scope: DmScope, { fields, selection, types, page: request }: DmEventsRequest): Promise<PageResult> {
  requireDmAccess(caller);
  const userId = caller.user.id;
  let conversationId: string | undefined;
  if (scope.kind === 'participant') {
    if (scope.id === userId) throw invalidParameter('participant_id', [scope.id], 'The `participant_id` path parameter must name another user.');
    const [other] = await findUsersByIds(ctx.store.db, [scope.id]);
    if (!other) return errorsOnly(problems.resourceNotFound({ parameter: 'participant_id', value: scope.id, resource_id: scope.id, resource_type: 'user' }));
    conversationId = oneToOneId(userId, scope.id);
  } else if (scope.kind === 'conversation') {
    conversationId = scope.id;
    if (!(await findParticipant(ctx.store.db, scope.id, userId))) {
      throw forbidden(`You do not take part in a direct message conversation with dm_conversation_id: [${scope.id}].`);
    }
  }
  const rows = await eventsVisibleTo(ctx.store.db, userId, {
    types: types.size > 0 ? ([...types] as DmEventType[]) : DM_EVENT_TYPES,
    conversationId,
    eventId: scope.kind === 'event' ? scope.id : undefined,
    limit: request.maxResults + 1,
    after: request.after,
  });
  if (scope.kind === 'event' && rows.length === 0) {
    throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find a direct message event you can see with event_id: [${scope.id}].`));
  }
  const { items, meta } = page(rows, request.maxResults, (e) => e.id);
  const hydrated = await hydrate(ctx, view, items, dmEventExpansions, selection);
  return {
    data: items.map((e) => selectFields(dmEventDeclaration, e, fields, hydrated.view)),
    includes: hydrated.includes,
    errors: hydrated.errors,
    meta: scope.kind === 'event' ? undefined : meta,
  };
}
