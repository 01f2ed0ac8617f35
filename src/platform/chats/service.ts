import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { selectFields } from '../../http/fields.js';
import { decodePageToken, encodePageToken, type MaxResultsRange } from '../../http/pagination.js';
import { invalidValue } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { ChatConversationTable, ChatEventTable, ChatMemberTable } from '../../store/schema-chats.js';
import { toJson, type DbOrTx } from '../../store/store.js';
import { isBlocking } from '../blocks/store.js';
import { requireNoDmBlock } from '../dm/blocking.js';
import { legacyUsers } from '../dm/legacy.js';
import { DM_LIMITS } from '../dm/service.js';
import { oneToOneId } from '../dm/wire.js';
import { hydrate, type Selection } from '../expansions.js';
import { requireDmAccess } from '../graph/access.js';
import type { PageRequest } from '../graph/query.js';
import { findUsersByIds } from '../users/store.js';
import type { View } from '../view.js';
import {
  conversationKeysFor,
  conversationsOf,
  findConversation,
  findEvent,
  findMember,
  findMessageByClientId,
  followedAmong,
  hasMessageRequests,
  insertConversation,
  insertConversationKeys,
  insertEvent,
  insertMember,
  lastMessage,
  membersOf,
  messagesOf,
  publicKeysOfUsers,
  setLastRead,
  updateConversation,
} from './store.js';
import { chatConversationDeclaration, chatConversationExpansions, chatMessageEventDeclaration, CONVERSATION_ID_LISTS, type ConversationRow } from './wire.js';

/** A group holds as many members as a direct-message group (the description gives no figure of its own). */
export const CHAT_LIMITS = { groupMembers: DM_LIMITS.groupParticipants };

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const DECIMAL = /^[0-9]{1,19}$/;

const forbidden = (detail: string) => new ProblemError(403, problems.aboutBlank(403, 'Forbidden', detail));
const notFound = (detail: string) => new ProblemError(404, problems.aboutBlank(404, 'Not Found', detail));
const conflict = (detail: string) => new ProblemError(409, problems.conflict(detail));

/** Refuses a body member the description says is base64 when it is not. */
export function requireBase64(parameter: string, value: string | undefined): void {
  if (value !== undefined && !BASE64.test(value)) throw invalidValue(parameter, value, `The \`${parameter}\` body field is not base64-encoded data`);
}

export interface ResolvedId {
  id: string;
  /** The other user of a one-to-one conversation. */
  otherId?: string;
}

/**
 * The canonical conversation a path id names: a user id names the one-to-one conversation with
 * that user ("the server constructs the canonical conversation ID from the authenticated user and
 * recipient"), a pair names it directly (smaller id first), `g<id>` names a group.
 */
export function resolveConversationId(callerId: string, raw: string, parameter = 'id'): ResolvedId {
  if (raw.startsWith('g')) return { id: raw };
  const pair = raw.split('-');
  if (pair.length === 1) {
    if (raw === callerId) throw invalidValue(parameter, raw, `The \`${parameter}\` value [${raw}] is your own user id: a one-to-one conversation is with another user.`);
    return { id: oneToOneId(callerId, raw), otherId: raw };
  }
  const [a, b] = pair;
  if (a === b) throw invalidValue(parameter, raw, `The \`${parameter}\` value [${raw}] names the same user twice.`);
  if (a !== callerId && b !== callerId) throw forbidden(`You are not a member of the chat conversation [${raw}].`);
  return { id: oneToOneId(a, b), otherId: a === callerId ? b : a };
}

export interface Membership {
  conversation: ChatConversationTable;
  member: ChatMemberTable;
}

/** The active conversation `id` names, which the caller is a member of. */
export async function requireMembership(db: DbOrTx, callerId: string, resolved: ResolvedId): Promise<Membership> {
  const conversation = await findConversation(db, resolved.id);
  if (!conversation || conversation.state !== 'active') {
    if (resolved.otherId) {
      throw notFound(`There is no chat conversation with user ${resolved.otherId} yet: add its keys first (POST /2/chat/conversations/${resolved.otherId}/keys).`);
    }
    if (!conversation) throw notFound(`Could not find the chat conversation [${resolved.id}].`);
  }
  const member = conversation?.state === 'active' ? await findMember(db, resolved.id, callerId) : undefined;
  if (!conversation || !member) throw forbidden(`You are not a member of the chat conversation [${resolved.id}].`);
  return { conversation, member };
}

/** Users a chat names must exist, not block the caller (or be DM-blocked either way), and have a public key. */
async function requireReachable(db: DbOrTx, callerId: string, ids: readonly string[], parameter: string): Promise<void> {
  const found = new Set((await findUsersByIds(db, ids)).map((u) => u.id));
  for (const id of ids) {
    if (!found.has(id)) throw new ProblemError(404, problems.resourceNotFound({ parameter, value: id, resource_id: id, resource_type: 'user' }));
    if (await isBlocking(db, id, callerId)) throw forbidden(`User ${id} has blocked you: you cannot chat with them.`);
    if (await isBlocking(db, callerId, id)) throw forbidden(`You block user ${id}: unblock them to chat with them.`);
  }
  await requireNoDmBlock(db, callerId, ids);
  await requirePublicKeys(db, ids, parameter);
}

/** Nobody can be given a conversation key without a public key to encrypt it to. */
async function requirePublicKeys(db: DbOrTx, ids: readonly string[], parameter: string): Promise<Map<string, Set<string>>> {
  const versions = new Map<string, Set<string>>();
  for (const key of await publicKeysOfUsers(db, ids)) {
    if (!versions.has(key.user_id)) versions.set(key.user_id, new Set());
    versions.get(key.user_id)!.add(key.version);
  }
  for (const id of ids) {
    if (!versions.has(id)) {
      throw invalidValue(parameter, id, `User ${id} has no chat public key registered (POST /2/users/${id}/public_keys): a conversation key cannot be encrypted for them.`);
    }
  }
  return versions;
}

export interface ParticipantKey {
  user_id?: string;
  encrypted_conversation_key?: string;
  public_key_version?: string;
}

export interface ActionSignature {
  message_id: string;
  encoded_message_event_detail: string;
  message_event_signature: Record<string, unknown>;
  signature_payload?: string;
}

export interface KeyChange {
  conversation_key_version?: string;
  conversation_participant_keys?: ParticipantKey[];
  base64_encoded_key_rotation?: string;
  action_signatures?: ActionSignature[];
}

/**
 * Checks a new conversation key version: newer than the current one, encrypted for exactly the
 * members (each once, to one of their registered public key versions).
 */
async function checkKeyChange(db: DbOrTx, current: string | null, change: KeyChange, memberIds: readonly string[]): Promise<{ version: string; keys: Required<ParticipantKey>[] }> {
  const version = change.conversation_key_version;
  if (version === undefined) throw invalidValue('conversation_key_version', undefined, 'The `conversation_key_version` body field is missing: the conversation key must be rotated.');
  if (!DECIMAL.test(version)) throw invalidValue('conversation_key_version', version, `The \`conversation_key_version\` value [${version}] is not a decimal number (such as a time in milliseconds).`);
  if (current !== null && BigInt(version) <= BigInt(current)) {
    throw conflict(`The conversation key version ${version} is not newer than the current version ${current}.`);
  }
  requireBase64('base64_encoded_key_rotation', change.base64_encoded_key_rotation);
  const given = change.conversation_participant_keys;
  if (given === undefined) throw invalidValue('conversation_participant_keys', undefined, 'The `conversation_participant_keys` body field is missing: each member needs the conversation key.');
  const members = new Set(memberIds);
  const versions = await requirePublicKeys(db, memberIds, 'conversation_participant_keys');
  const keys: Required<ParticipantKey>[] = [];
  const seen = new Set<string>();
  for (const key of given) {
    const userId = key.user_id;
    if (userId === undefined || !members.has(userId)) {
      throw invalidValue('conversation_participant_keys', userId, `Every participant key must name a member of the conversation by user_id; [${userId ?? ''}] is not one.`);
    }
    if (seen.has(userId)) throw invalidValue('conversation_participant_keys', userId, `User ${userId} is given more than one participant key.`);
    seen.add(userId);
    if (!key.encrypted_conversation_key) throw invalidValue('conversation_participant_keys', userId, `The participant key of user ${userId} has no encrypted_conversation_key.`);
    const registered = versions.get(userId)!;
    const keyVersion = key.public_key_version ?? [...registered].sort((a, b) => (BigInt(b) > BigInt(a) ? 1 : -1))[0];
    if (!registered.has(keyVersion)) {
      throw invalidValue('conversation_participant_keys', keyVersion, `User ${userId} has no public key version ${keyVersion}.`);
    }
    keys.push({ user_id: userId, encrypted_conversation_key: key.encrypted_conversation_key, public_key_version: keyVersion });
  }
  const missing = memberIds.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    throw invalidValue('conversation_participant_keys', missing.join(','), `The conversation key is not encrypted for every member: missing ${missing.join(', ')}.`);
  }
  return { version, keys };
}

/** Stores a key change as an event of the conversation and makes its version current; its sequence id. */
async function recordKeyChange(ctx: PlatformContext, db: DbOrTx, conversationId: string, senderId: string, change: KeyChange, checked: { version: string; keys: Required<ParticipantKey>[] }): Promise<string> {
  const sequenceId = ctx.ids.next();
  const now = ctx.clock.now().toISOString();
  await insertEvent(db, {
    id: sequenceId,
    conversation_id: conversationId,
    kind: 'key_change',
    sender_id: senderId,
    message_id: null,
    encoded_event: null,
    encoded_signature: null,
    conversation_token: null,
    key_version: checked.version,
    key_rotation: change.base64_encoded_key_rotation ?? null,
    action_signatures: change.action_signatures ? toJson(change.action_signatures) : null,
    previous_id: null,
    created_at: now,
  });
  await insertConversationKeys(
    db,
    checked.keys.map((k) => ({ conversation_id: conversationId, key_version: checked.version, user_id: k.user_id, public_key_version: k.public_key_version, encrypted_conversation_key: k.encrypted_conversation_key, sequence_id: sequenceId })),
  );
  await updateConversation(db, conversationId, { key_version: checked.version, updated_at: now });
  return sequenceId;
}

/** The Activity API's chat.conversation_join, in the shape the direct-message groups give it. */
async function announceJoin(ctx: PlatformContext, db: DbOrTx, conversationId: string, senderId: string, sequenceId: string, joined: string[]): Promise<void> {
  await appendEvent(ctx, db, {
    type: 'chat.conversation_join',
    subject: senderId,
    payload: {
      direct_message_events: [
        { type: 'participants_join', id: sequenceId, created_timestamp: String(ctx.clock.now().getTime()), dm_conversation_id: conversationId, sender_id: senderId, participant_ids: joined },
      ],
      users: legacyUsers(await findUsersByIds(db, [senderId, ...joined])),
    },
  });
}

/**
 * The Activity API's chat.sent (for the sender) and chat.received (for each other member), as
 * their own log entries: a chat message is ciphertext, so the payload carries the event as
 * stored, never its text, and direct-message consumers (which read dm.*) never take it for a DM.
 */
async function announceMessage(ctx: PlatformContext, db: DbOrTx, event: ChatEventTable): Promise<void> {
  const recipients = (await membersOf(db, [event.conversation_id])).map((m) => m.user_id).filter((id) => id !== event.sender_id);
  const item = (recipientId?: string) => ({
    type: 'message_create',
    id: event.id,
    created_timestamp: String(Date.parse(event.created_at)),
    conversation_id: event.conversation_id,
    sender_id: event.sender_id,
    ...(recipientId !== undefined ? { recipient_id: recipientId } : {}),
    encoded_event: event.encoded_event,
    ...(event.encoded_signature ? { message_event_signature: { encoded_message_event_signature: event.encoded_signature } } : {}),
    ...(event.conversation_token ? { conversation_token: event.conversation_token } : {}),
    ...(event.previous_id ? { previous_id: event.previous_id } : {}),
  });
  await appendEvent(ctx, db, { type: 'chat.sent', subject: event.sender_id, payload: { chat_message_events: [item()], recipient_ids: recipients } });
  for (const recipient of recipients) {
    await appendEvent(ctx, db, { type: 'chat.received', subject: recipient, payload: { chat_message_events: [item(recipient)] } });
  }
}

const member = (conversationId: string, userId: string, isAdmin: boolean, from: string | null, at: string): ChatMemberTable => ({
  conversation_id: conversationId,
  user_id: userId,
  is_admin: isAdmin ? 1 : 0,
  is_muted: 0,
  from_sequence_id: from,
  last_read_sequence_id: null,
  joined_at: at,
});

/** POST /2/chat/conversations/group/initialize: a group id for the caller to create the group under. */
export async function initializeGroup(ctx: PlatformContext, caller: UserCaller): Promise<{ conversation_id: string }> {
  requireDmAccess(caller);
  const now = ctx.clock.now().toISOString();
  const id = `g${ctx.ids.next()}`;
  await insertConversation(ctx.store.db, {
    id, type: 'group', state: 'initialized', creator_id: caller.user.id, group_name: null, group_description: null, group_avatar_url: null,
    message_ttl_ms: null, key_version: null, created_at: now, updated_at: now,
  });
  return { conversation_id: id };
}

export interface NewGroup extends KeyChange {
  conversation_id: string;
  group_members: string[];
  group_admins?: string[];
  group_name?: string;
  group_description?: string;
  group_avatar_url?: string;
  ttl_msec?: string;
}

/** POST /2/chat/conversations/group: the creator makes an initialized group real, with its members and first key. */
export async function createGroup(ctx: PlatformContext, caller: UserCaller, input: NewGroup): Promise<{ conversation_id: string; conversation_key_change_sequence_id: string }> {
  requireDmAccess(caller);
  const me = caller.user.id;
  const others = [...new Set(input.group_members)].filter((id) => id !== me);
  if (others.length === 0) throw invalidValue('group_members', input.group_members.join(','), 'A group needs at least one member besides you.');
  if (others.length + 1 > CHAT_LIMITS.groupMembers) throw invalidValue('group_members', input.group_members.join(','), `A group has at most ${CHAT_LIMITS.groupMembers} members.`);
  const memberIds = [me, ...others];
  const admins = [...new Set(input.group_admins ?? [me])];
  const strayAdmin = admins.find((id) => !memberIds.includes(id));
  if (strayAdmin !== undefined) throw invalidValue('group_admins', strayAdmin, `Group admin ${strayAdmin} is not among the group's members.`);
  let ttl: number | null = null;
  if (input.ttl_msec !== undefined) {
    if (!/^[0-9]{1,15}$/.test(input.ttl_msec) || Number(input.ttl_msec) < 1) throw invalidValue('ttl_msec', input.ttl_msec, `The \`ttl_msec\` value [${input.ttl_msec}] is not a positive number of milliseconds.`);
    ttl = Number(input.ttl_msec);
  }
  return ctx.store.db.transaction().execute(async (tx) => {
    const conversation = await findConversation(tx, input.conversation_id);
    if (!conversation || conversation.type !== 'group' || conversation.creator_id !== me) {
      throw invalidValue('conversation_id', input.conversation_id, `The \`conversation_id\` value [${input.conversation_id}] is not a group id you initialized (POST /2/chat/conversations/group/initialize).`);
    }
    if (conversation.state !== 'initialized') throw conflict(`The group [${input.conversation_id}] has already been created.`);
    await requireReachable(tx, me, others, 'group_members');
    const checked = await checkKeyChange(tx, null, input, memberIds);
    const now = ctx.clock.now().toISOString();
    await updateConversation(tx, conversation.id, {
      state: 'active', group_name: input.group_name ?? null, group_description: input.group_description ?? null, group_avatar_url: input.group_avatar_url ?? null,
      message_ttl_ms: ttl, created_at: now, updated_at: now,
    });
    for (const id of memberIds) await insertMember(tx, member(conversation.id, id, admins.includes(id), null, now));
    const sequenceId = await recordKeyChange(ctx, tx, conversation.id, me, input, checked);
    await announceJoin(ctx, tx, conversation.id, me, sequenceId, others);
    return { conversation_id: conversation.id, conversation_key_change_sequence_id: sequenceId };
  });
}

/**
 * POST /2/chat/conversations/{id}/keys: initializes or rotates the conversation key. The first
 * keys of a one-to-one conversation are what opens it.
 */
export async function addConversationKeys(ctx: PlatformContext, caller: UserCaller, rawId: string, change: KeyChange): Promise<{ conversation_id: string; sequence_id: string }> {
  requireDmAccess(caller);
  const me = caller.user.id;
  const resolved = resolveConversationId(me, rawId);
  return ctx.store.db.transaction().execute(async (tx) => {
    let conversation = await findConversation(tx, resolved.id);
    if (resolved.otherId !== undefined) {
      await requireReachable(tx, me, [resolved.otherId], 'id');
      await requirePublicKeys(tx, [me], 'id');
      if (!conversation) {
        const now = ctx.clock.now().toISOString();
        const row: ChatConversationTable = {
          id: resolved.id, type: 'one_to_one', state: 'active', creator_id: me, group_name: null, group_description: null, group_avatar_url: null,
          message_ttl_ms: null, key_version: null, created_at: now, updated_at: now,
        };
        await insertConversation(tx, row);
        for (const id of [me, resolved.otherId]) await insertMember(tx, member(row.id, id, false, null, now));
        conversation = row;
      }
    }
    const { conversation: current } = await requireMembership(tx, me, resolved);
    const memberIds = (await membersOf(tx, [current.id])).map((m) => m.user_id);
    const checked = await checkKeyChange(tx, current.key_version, change, memberIds);
    return { conversation_id: current.id, sequence_id: await recordKeyChange(ctx, tx, current.id, me, change, checked) };
  });
}

export interface NewMembers extends KeyChange {
  user_ids: string[];
  encrypted_title?: string;
  encrypted_avatar_url?: string;
}

/** POST /2/chat/conversations/{id}/members: a group admin adds members, rotating the conversation key to include them. */
export async function addGroupMembers(ctx: PlatformContext, caller: UserCaller, rawId: string, input: NewMembers): Promise<{ conversation_id: string; sequence_id: string }> {
  requireDmAccess(caller);
  const me = caller.user.id;
  const resolved = resolveConversationId(me, rawId);
  if (resolved.otherId !== undefined) throw invalidValue('id', rawId, 'Members can only be added to group conversations.');
  return ctx.store.db.transaction().execute(async (tx) => {
    const { conversation, member: self } = await requireMembership(tx, me, resolved);
    if (self.is_admin !== 1) throw forbidden(`Only admins of the group [${conversation.id}] can add members.`);
    const current = (await membersOf(tx, [conversation.id])).map((m) => m.user_id);
    const joining = [...new Set(input.user_ids)];
    const already = joining.filter((id) => current.includes(id));
    if (already.length > 0) throw invalidValue('user_ids', already.join(','), `Already members of the group: ${already.join(', ')}.`);
    if (current.length + joining.length > CHAT_LIMITS.groupMembers) throw invalidValue('user_ids', joining.join(','), `A group has at most ${CHAT_LIMITS.groupMembers} members.`);
    await requireReachable(tx, me, joining, 'user_ids');
    const checked = await checkKeyChange(tx, conversation.key_version, input, [...current, ...joining]);
    const sequenceId = await recordKeyChange(ctx, tx, conversation.id, me, input, checked);
    const now = ctx.clock.now().toISOString();
    // New members read from the key change that let them in: earlier messages were never theirs.
    for (const id of joining) await insertMember(tx, member(conversation.id, id, false, sequenceId, now));
    const renamed: Partial<ChatConversationTable> = {};
    if (input.encrypted_title !== undefined) renamed.group_name = input.encrypted_title;
    if (input.encrypted_avatar_url !== undefined) renamed.group_avatar_url = input.encrypted_avatar_url;
    if (Object.keys(renamed).length > 0) await updateConversation(tx, conversation.id, renamed);
    await announceJoin(ctx, tx, conversation.id, me, sequenceId, joining);
    return { conversation_id: conversation.id, sequence_id: sequenceId };
  });
}

export interface NewMessage {
  message_id: string;
  encoded_message_create_event: string;
  encoded_message_event_signature?: string;
  conversation_token?: string;
}

/** POST /2/chat/conversations/{id}/messages: a member sends ciphertext, stored as sent. A retry with the same message_id finds the same message. */
export async function sendMessage(ctx: PlatformContext, caller: UserCaller, rawId: string, message: NewMessage): Promise<{ encoded_message_event: string; sequence_id: string; conversation_id: string }> {
  requireDmAccess(caller);
  const me = caller.user.id;
  requireBase64('encoded_message_create_event', message.encoded_message_create_event);
  requireBase64('encoded_message_event_signature', message.encoded_message_event_signature);
  const resolved = resolveConversationId(me, rawId);
  return ctx.store.db.transaction().execute(async (tx) => {
    const { conversation } = await requireMembership(tx, me, resolved);
    if (resolved.otherId !== undefined) {
      if (await isBlocking(tx, resolved.otherId, me)) throw forbidden(`User ${resolved.otherId} has blocked you: you cannot chat with them.`);
      await requireNoDmBlock(tx, me, [resolved.otherId]);
    }
    const sent = (e: ChatEventTable) => ({ encoded_message_event: e.encoded_event ?? '', sequence_id: e.id, conversation_id: conversation.id });
    const earlier = await findMessageByClientId(tx, conversation.id, message.message_id);
    if (earlier) {
      if (earlier.sender_id === me && earlier.encoded_event === message.encoded_message_create_event) return sent(earlier);
      throw conflict(`The conversation already has a different message with message_id [${message.message_id}].`);
    }
    const now = ctx.clock.now().toISOString();
    const event: ChatEventTable = {
      id: ctx.ids.next(),
      conversation_id: conversation.id,
      kind: 'message',
      sender_id: me,
      message_id: message.message_id,
      encoded_event: message.encoded_message_create_event,
      encoded_signature: message.encoded_message_event_signature ?? null,
      conversation_token: message.conversation_token ?? null,
      key_version: conversation.key_version,
      key_rotation: null,
      action_signatures: null,
      previous_id: (await lastMessage(tx, conversation.id))?.id ?? null,
      created_at: now,
    };
    await insertEvent(tx, event);
    await updateConversation(tx, conversation.id, { updated_at: now });
    await announceMessage(ctx, tx, event);
    return sent(event);
  });
}

/** POST /2/chat/conversations/{id}/read: the caller has seen the conversation up to a sequence id; marks never move back. */
export async function markRead(ctx: PlatformContext, caller: UserCaller, rawId: string, seenUntil: string): Promise<{ success: boolean }> {
  requireDmAccess(caller);
  const me = caller.user.id;
  const resolved = resolveConversationId(me, rawId);
  await ctx.store.db.transaction().execute(async (tx) => {
    const { conversation, member: self } = await requireMembership(tx, me, resolved);
    const event = DECIMAL.test(seenUntil) ? await findEvent(tx, conversation.id, seenUntil) : undefined;
    if (!event || (self.from_sequence_id !== null && BigInt(event.id) < BigInt(self.from_sequence_id))) {
      throw invalidValue('seen_until_sequence_id', seenUntil, `The \`seen_until_sequence_id\` value [${seenUntil}] is not a sequence id of this conversation you can see.`);
    }
    const before = self.last_read_sequence_id;
    if (before === null || BigInt(event.id) > BigInt(before)) await setLastRead(tx, conversation.id, me, event.id);
  });
  return { success: true };
}

/** POST /2/chat/conversations/{id}/typing: only a member may say they are typing; Plaza keeps no state for it. */
export async function sendTyping(ctx: PlatformContext, caller: UserCaller, rawId: string): Promise<{ success: boolean }> {
  requireDmAccess(caller);
  await requireMembership(ctx.store.db, caller.user.id, resolveConversationId(caller.user.id, rawId));
  return { success: true };
}

export interface ConversationRequest {
  fields: ReadonlySet<string>;
  selection: Selection;
}

/** Wire conversations with the id lists of the selected expansions, and their users in includes. */
async function renderConversations(ctx: PlatformContext, view: View, viewerId: string, conversations: ChatConversationTable[], request: ConversationRequest) {
  const members = await membersOf(ctx.store.db, conversations.map((c) => c.id));
  const rows: ConversationRow[] = conversations.map((conversation) => {
    const own = members.filter((m) => m.conversation_id === conversation.id);
    return { conversation, members: own, viewer: own.find((m) => m.user_id === viewerId)! };
  });
  const hydrated = await hydrate(ctx, view, rows, chatConversationExpansions, request.selection);
  const data = rows.map((row) => {
    const wire = selectFields(chatConversationDeclaration, row, request.fields, { expansions: request.selection.expansions });
    for (const name of request.selection.expansions) wire[name] = CONVERSATION_ID_LISTS[name](row);
    return wire;
  });
  return { data, includes: hydrated.includes, errors: hydrated.errors };
}

/** GET /2/chat/conversations/{id}. */
export async function getConversation(ctx: PlatformContext, caller: UserCaller, view: View, rawId: string, request: ConversationRequest) {
  requireDmAccess(caller);
  const { conversation } = await requireMembership(ctx.store.db, caller.user.id, resolveConversationId(caller.user.id, rawId));
  return renderConversations(ctx, view, caller.user.id, [conversation], request);
}

const INBOX_KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z) ([0-9]{1,19}-[0-9]{1,19}|g[0-9]{1,19})$/;

/** Parses an inbox page: conversations are ordered by last activity, then id. */
export function parseInboxPage(ctx: PlatformContext, q: Record<string, unknown>, range: MaxResultsRange): { maxResults: number; after?: { createdAt: string; id: string } } {
  const maxResults = q.max_results === undefined ? range.default : Number(q.max_results);
  const key = decodePageToken(q.pagination_token);
  if (key === undefined) return { maxResults };
  const match = INBOX_KEY.exec(key);
  if (!match) throw invalidValue('pagination_token', q.pagination_token, `The \`pagination_token\` query parameter value [${String(q.pagination_token)}] is not a valid token`);
  return { maxResults, after: { createdAt: match[1], id: match[2] } };
}

/** GET /2/chat/conversations: the caller's inbox, most recently active first. */
export async function listConversations(ctx: PlatformContext, caller: UserCaller, view: View, page: ReturnType<typeof parseInboxPage>, request: ConversationRequest) {
  requireDmAccess(caller);
  const me = caller.user.id;
  const rows = await conversationsOf(ctx.store.db, me, { limit: page.maxResults + 1, after: page.after });
  const items = rows.slice(0, page.maxResults);
  const more = rows.length > page.maxResults;
  const rendered = await renderConversations(ctx, view, me, items, request);
  const last = items[items.length - 1];
  return {
    ...rendered,
    meta: {
      result_count: items.length,
      has_more: more,
      has_message_requests: await hasMessageRequests(ctx.store.db, me),
      ...(more && last ? { next_token: encodePageToken(`${last.updated_at} ${last.id}`) } : {}),
    },
  };
}

/**
 * A key change as one member reads it: base64 of a JSON object with its sequence id, version,
 * and the conversation key encrypted for that member (Plaza's encoding; the public platform's is
 * its own Thrift).
 */
function encodedKeyEvent(key: { sequence_id: string; key_version: string; encrypted_conversation_key: string; public_key_version: string | null }): string {
  return Buffer.from(
    JSON.stringify({ sequence_id: key.sequence_id, conversation_key_version: key.key_version, encrypted_conversation_key: key.encrypted_conversation_key, public_key_version: key.public_key_version }),
  ).toString('base64');
}

export interface EventsRequest {
  fields: ReadonlySet<string>;
  page: PageRequest;
}

/**
 * GET /2/chat/conversations/{id}/events: the messages a member may read, newest first (from when
 * they joined, and not past the group's message time-to-live), with the conversation keys
 * encrypted for them in meta.conversation_key_events.
 */
export async function listEvents(ctx: PlatformContext, caller: UserCaller, rawId: string, { fields, page }: EventsRequest) {
  requireDmAccess(caller);
  const me = caller.user.id;
  const { conversation, member: self } = await requireMembership(ctx.store.db, me, resolveConversationId(me, rawId));
  const ttl = conversation.message_ttl_ms;
  const rows = await messagesOf(ctx.store.db, conversation.id, {
    limit: page.maxResults + 1,
    after: page.after,
    from: self.from_sequence_id,
    notBefore: ttl ? new Date(ctx.clock.now().getTime() - ttl).toISOString() : undefined,
  });
  const items = rows.slice(0, page.maxResults);
  const more = rows.length > page.maxResults;
  const followed = await followedAmong(ctx.store.db, me, [...new Set(items.map((e) => e.sender_id))]);
  const keys = await conversationKeysFor(ctx.store.db, conversation.id, me);
  const last = items[items.length - 1];
  return {
    data: items.map((event) => selectFields(chatMessageEventDeclaration, { event, trusted: event.sender_id === me || followed.has(event.sender_id) }, fields, undefined)),
    meta: {
      result_count: items.length,
      has_more: more,
      ...(more && last ? { next_token: encodePageToken(last.id) } : {}),
      ...(keys.length > 0 ? { conversation_key_events: keys.map(encodedKeyEvent) } : {}),
    },
  };
}
