import crypto from 'node:crypto';
import fs from 'node:fs';
import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { invalidValue } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import type { ChatMediaTable } from '../../store/schema-chats.js';
import { requireWriteAccess } from '../graph/access.js';
import type { Readable } from 'node:stream';
import { assemblyFile } from '../media/blobs.js';
import { MEDIA_EXPIRES_AFTER_SECS, MEDIA_LIMITS, uploadExpired } from '../media/service.js';
import { findChatMedia, findChatMediaByHashKey, findMember, moveChatMedia, insertChatMedia } from './store.js';
import { requireMembership, resolveConversationId } from './service.js';

/** Chat media is ciphertext of any kind: it may be as large as the largest media (a video). */
export const CHAT_MEDIA_MAX_BYTES = MEDIA_LIMITS.video;

const bad = (parameter: string, value: unknown, message: string) => invalidValue(parameter, value, message);
const epochSeconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

/**
 * POST /2/chat/media/upload/initialize: a member of a conversation opens an upload for it. The
 * media hash key addresses the media from then on (append, finalize, download).
 */
export async function initializeChatMedia(ctx: PlatformContext, caller: UserCaller, input: { conversation_id: string; total_bytes: number }) {
  requireWriteAccess(caller);
  if (input.total_bytes < 1 || input.total_bytes > CHAT_MEDIA_MAX_BYTES) {
    throw bad('total_bytes', input.total_bytes, `The \`total_bytes\` value must be between 1 and ${CHAT_MEDIA_MAX_BYTES} bytes.`);
  }
  const me = caller.user.id;
  const { conversation } = await requireMembership(ctx.store.db, me, resolveConversationId(me, input.conversation_id, 'conversation_id'));
  const now = ctx.clock.now();
  const row: ChatMediaTable = {
    id: ctx.ids.next(),
    media_hash_key: crypto.randomBytes(20).toString('hex'),
    conversation_id: conversation.id,
    owner_user_id: me,
    total_bytes: input.total_bytes,
    state: 'uploading',
    message_id: null,
    file_path: null,
    size: null,
    media_expires_at: null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + MEDIA_EXPIRES_AFTER_SECS * 1000).toISOString(),
  };
  await insertChatMedia(ctx.store.db, row);
  return { session_id: row.id, media_hash_key: row.media_hash_key, conversation_id: conversation.id };
}

/** The caller's open upload session, which the body's conversation_id and media_hash_key must name too. */
async function openSession(ctx: PlatformContext, caller: UserCaller, sessionId: string, conversationId: string, hashKey: string): Promise<ChatMediaTable> {
  const session = await findChatMedia(ctx.store.db, sessionId);
  if (!session || session.owner_user_id !== caller.user.id) {
    throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find a chat media upload with id: [${sessionId}].`));
  }
  if (session.media_hash_key !== hashKey) throw bad('media_hash_key', hashKey, `The \`media_hash_key\` value is not the one initialize returned for upload [${sessionId}].`);
  const resolved = resolveConversationId(caller.user.id, conversationId, 'conversation_id');
  if (resolved.id !== session.conversation_id) throw bad('conversation_id', conversationId, `The upload [${sessionId}] belongs to conversation [${session.conversation_id}], not [${conversationId}].`);
  if (session.state !== 'uploading' && session.state !== 'expired') throw bad('id', sessionId, `The upload [${sessionId}] has already been finalized.`);
  if (uploadExpired(session, ctx.clock.now())) throw bad('id', sessionId, `The upload [${sessionId}] expired at ${session.expires_at}; initialize a new one.`);
  return session;
}

/** POST /2/chat/media/upload/{id}/append: one segment (0 to 999); sending an index again replaces it. */
export async function appendChatMedia(
  ctx: PlatformContext,
  caller: UserCaller,
  sessionId: string,
  input: { conversation_id: string; media_hash_key: string; segment_index: number; bytes: Buffer },
): Promise<{ expires_at: number }> {
  requireWriteAccess(caller);
  const session = await openSession(ctx, caller, sessionId, input.conversation_id, input.media_hash_key);
  if (input.bytes.length === 0) throw bad('media', undefined, 'The `media` segment is empty.');
  const blobs = ctx.media;
  const others = [...(await blobs.segments(session.id))].filter(([i]) => i !== input.segment_index).reduce((sum, [, size]) => sum + size, 0);
  if (others + input.bytes.length > session.total_bytes) {
    throw bad('media', undefined, `The \`media\` segment would bring the upload to ${others + input.bytes.length} bytes, more than its total_bytes of ${session.total_bytes}.`);
  }
  await blobs.putSegment(session.id, input.segment_index, input.bytes);
  return { expires_at: epochSeconds(session.expires_at) };
}

export interface FinalizeInput {
  conversation_id: string;
  media_hash_key: string;
  num_parts: string;
  message_id?: string;
  ttl_msec?: string;
}

/**
 * POST /2/chat/media/upload/{id}/finalize: segments 0..num_parts-1, exactly total_bytes, joined
 * and stored. Naming message_id attaches the media to that message: from then on every member of
 * the conversation may download it, before then only its uploader.
 */
export async function finalizeChatMedia(ctx: PlatformContext, caller: UserCaller, sessionId: string, input: FinalizeInput): Promise<{ success: boolean }> {
  requireWriteAccess(caller);
  if (!/^[0-9]{1,4}$/.test(input.num_parts) || Number(input.num_parts) < 1 || Number(input.num_parts) > 1000) {
    throw bad('num_parts', input.num_parts, `The \`num_parts\` value [${input.num_parts}] is not a number of parts between 1 and 1000.`);
  }
  if (input.ttl_msec !== undefined && (!/^[0-9]{1,15}$/.test(input.ttl_msec) || Number(input.ttl_msec) < 1)) {
    throw bad('ttl_msec', input.ttl_msec, `The \`ttl_msec\` value [${input.ttl_msec}] is not a positive number of milliseconds.`);
  }
  const session = await openSession(ctx, caller, sessionId, input.conversation_id, input.media_hash_key);
  const parts = Number(input.num_parts);
  const blobs = ctx.media;
  const segments = await blobs.segments(session.id);
  const ordered = [...segments.keys()].sort((a, b) => a - b);
  const missing = Array.from({ length: parts }, (_, i) => i).find((i) => !segments.has(i));
  if (missing !== undefined) throw bad('num_parts', input.num_parts, `The upload [${session.id}] is missing segment ${missing}.`);
  if (ordered.length !== parts) throw bad('num_parts', input.num_parts, `The upload [${session.id}] holds ${ordered.length} segments, not ${parts}.`);
  const size = ordered.reduce((sum, i) => sum + segments.get(i)!, 0);
  if (size !== session.total_bytes) throw bad('num_parts', input.num_parts, `The upload [${session.id}] holds ${size} bytes, not the ${session.total_bytes} bytes initialize declared in total_bytes.`);
  // Claimed first, so a concurrent finalize cannot store it twice; a failure gives it back.
  if (!(await moveChatMedia(ctx.store.db, session.id, 'uploading', { state: 'finalizing' }))) throw bad('id', session.id, `The upload [${session.id}] is already being finalized.`);
  const temp = assemblyFile(ctx, session.id);
  let file: string | undefined;
  try {
    await blobs.assembleTo(session.id, ordered, temp);
    file = await blobs.keep(session.id, ordered, temp, `chat_${session.id}.bin`);
    const expires = input.ttl_msec ? new Date(ctx.clock.now().getTime() + Number(input.ttl_msec)).toISOString() : null;
    await moveChatMedia(ctx.store.db, session.id, 'finalizing', { state: 'finalized', file_path: file, size, message_id: input.message_id ?? null, media_expires_at: expires });
  } catch (err) {
    if (file) await blobs.remove(file).catch(() => {});
    await moveChatMedia(ctx.store.db, session.id, 'finalizing', { state: 'uploading' });
    throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
  await blobs.dropUpload(session.id);
  return { success: true };
}

/**
 * GET /2/chat/media/{id}/{media_hash_key}: the stored bytes, to a member of the conversation the
 * media belongs to once attached to a message, and to its uploader at any time; expired media is gone.
 */
export async function downloadChatMedia(ctx: PlatformContext, caller: UserCaller, rawId: string, hashKey: string): Promise<{ size: number; stream(): Readable }> {
  const me = caller.user.id;
  const resolved = resolveConversationId(me, rawId);
  const gone = () => new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find chat media [${hashKey}] in conversation [${resolved.id}].`));
  const media = await findChatMediaByHashKey(ctx.store.db, hashKey);
  if (!media || media.conversation_id !== resolved.id || media.state !== 'finalized' || !media.file_path) throw gone();
  if (media.owner_user_id !== me) {
    if (!(await findMember(ctx.store.db, media.conversation_id, me))) throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `You are not a member of the chat conversation [${resolved.id}].`));
    if (media.message_id === null) throw gone();
  }
  if (media.media_expires_at !== null && media.media_expires_at <= ctx.clock.now().toISOString()) throw gone();
  const file = await ctx.media.open(media.file_path);
  if (!file) throw gone();
  return file;
}
