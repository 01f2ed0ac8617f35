import type { PlatformContext } from '../context.js';
import { jsonText, type RawJson } from '../../http/json-body.js';
import { parseSelectionText } from '../../http/fields.js';
import { sampleBucket } from '../../query/geo-sample.js';
import type { LoggedEvent } from '../activity/event-types.js';
import { hydrate, ResponseReads, type ExpansionDeclarations, type Selection } from '../expansions.js';
import { mediaKeysOf } from '../posts/wire.js';
import type { RecordedConnection } from './connections.js';
import { streamLine, type Send, type StreamChannel } from './engine.js';
import { partitionOf } from './posts.js';
import { visibleTo } from '../visibility/memory.js';
import { READABLE } from '../visibility/rule.js';
import { errorsUnderBase } from '../../http/problems.js';

/**
 * The compliance, label and likes streams: entries of the log turned into the reference's event
 * objects ('tweet' renamed 'post', as everywhere in Plaza), one line each, built once and sent to
 * every connection whose partition takes it.
 *
 * What the log holds today: post.delete and edits (post.create of a new version) for the posts
 * compliance stream; profile.update.* for the users compliance stream (user_profile_modification);
 * like.create for the likes firehose and sample. Not in the log yet, so never streamed: protect and
 * unprotect, user delete and suspension, withholding, drops, scrub_geo, unlikes (the likes
 * compliance stream) and post labels (the label stream).
 */

export interface PartitionedConnection extends RecordedConnection {
  /** 1..partitions, when the endpoint is partitioned. */
  partition?: number;
  partitions?: number;
}

/** A channel whose lines depend only on the entry: one line per entry, keyed by the id its partition reads. */
abstract class MappedChannel<C extends PartitionedConnection> implements StreamChannel<C> {
  abstract readonly logTypes: ReadonlySet<string>;
  protected abstract lineOf(event: LoggedEvent): { key: string; body: unknown } | undefined;

  async dispatch(events: readonly LoggedEvent[], conns: readonly C[], send: Send<C>): Promise<void> {
    for (const event of events) {
      const line = this.lineOf(event);
      if (!line) continue;
      const text = streamLine(line.body);
      for (const conn of conns) if (conn.partitions === undefined || partitionOf(line.key, conn.partitions) === conn.partition) send(conn, event, text);
    }
  }
}

/** GET /2/posts/compliance/stream: deletes and edits of posts, as they happen. */
export class PostComplianceChannel extends MappedChannel<PartitionedConnection> {
  readonly logTypes: ReadonlySet<string> = new Set(['post.delete', 'post.create']);

  protected lineOf(event: LoggedEvent) {
    const p = event.payload ?? {};
    if (event.type === 'post.delete') {
      return { key: String(p.id), body: { data: { delete: { post: { id: String(p.id), author_id: String(p.author_id) }, event_at: event.created_at } } } };
    }
    const chain: string[] = Array.isArray(p.edit_history_post_ids) ? p.edit_history_post_ids.map(String) : [];
    // A new post is no compliance event; a new version of one is its edit.
    if (chain.length < 2) return undefined;
    return { key: chain[0], body: { data: { post_edit: { post: { id: String(p.id) }, event_at: event.created_at, initial_post_id: chain[0], edit_post_ids: chain } } } };
  }
}

/** profile.update.<what> entries and the profile field each changes. */
const PROFILE_FIELDS: Record<string, string> = {
  'profile.update.bio': 'description',
  'profile.update.screenname': 'username',
  'profile.update.verified': 'verified_type',
  'profile.update.affiliate': 'affiliation',
  'profile.update.geo': 'location',
  'profile.update.url': 'url',
  'profile.update.profile_picture': 'profile_image_url',
};

/** The entry of an account made protected or public. */
const PROTECTED = 'profile.update.protected';

/** GET /2/users/compliance/stream: profile modifications, protects and unprotects, as they happen. */
export class UserComplianceChannel extends MappedChannel<PartitionedConnection> {
  readonly logTypes: ReadonlySet<string> = new Set([...Object.keys(PROFILE_FIELDS), PROTECTED]);

  protected lineOf(event: LoggedEvent) {
    if (event.type === PROTECTED) {
      const kind = event.payload?.after === 'true' ? 'user_protect' : 'user_unprotect';
      return { key: event.subject, body: { data: { [kind]: { user: { id: event.subject }, event_at: event.created_at } } } };
    }
    const field = PROFILE_FIELDS[event.type];
    if (!field) return undefined;
    const after = event.payload?.after;
    return {
      key: event.subject,
      body: { data: { user_profile_modification: { user: { id: event.subject }, profile_field: field, new_value: typeof after === 'string' ? after : JSON.stringify(after ?? null), event_at: event.created_at } } },
    };
  }
}

/** GET /2/likes/compliance/stream: unlikes, as they happen (delete.favorite). */
export class LikeComplianceChannel extends MappedChannel<PartitionedConnection> {
  readonly logTypes: ReadonlySet<string> = new Set(['like.delete']);

  protected lineOf(event: LoggedEvent) {
    const p = event.payload ?? {};
    return { key: String(p.id), body: { data: { delete: { favorite: { id: String(p.id), user_id: String(p.user_id) }, event_at: event.created_at } } } };
  }
}

/** Streams whose events the log does not hold yet (label notices): keep-alives only, until it does. */
export class SilentChannel extends MappedChannel<PartitionedConnection> {
  readonly logTypes: ReadonlySet<string> = new Set();
  protected lineOf(): undefined {
    return undefined;
  }
}

/** The Like of the likes streams (LikeWithPostAuthor of the reference, 'tweet' renamed 'post'). */
interface LikeRow {
  id: string;
  created_at: string;
  timestamp_ms: number;
  liked_post_id: string;
  liked_post_author_id: string;
  attachments_media_keys?: string[];
}

export const LIKE_FIELDS = ['attachments_media_keys', 'created_at', 'id', 'liked_post_author_id', 'liked_post_id', 'timestamp_ms'];
const LIKE_DEFAULTS = ['created_at', 'id', 'liked_post_author_id', 'liked_post_id', 'timestamp_ms'];

export const likeExpansions: ExpansionDeclarations<LikeRow> = {
  'attachments.media_keys': { target: 'media', keys: (l) => l.attachments_media_keys ?? [] },
  liked_post_author_id: { target: 'users', keys: (l) => [l.liked_post_author_id] },
  liked_post_id: { target: 'posts', keys: (l) => [l.liked_post_id] },
};

/** like_with_post_author.fields, its default when absent. */
export function parseLikeFields(raw: string | undefined): ReadonlySet<string> {
  if (raw === undefined) return new Set(LIKE_DEFAULTS);
  return parseSelectionText('like_with_post_author.fields', raw, LIKE_FIELDS);
}

export interface LikeStreamConnection extends PartitionedConnection {
  /** 10 for the sample10 stream; undefined for the firehose. */
  percent?: number;
  likeFields: ReadonlySet<string>;
  selection: Selection;
  selectionKey: string;
}

/** GET /2/likes/firehose/stream and /2/likes/sample10/stream: public likes as they happen (likes of protected authors' posts never). */
export class LikeStreamChannel implements StreamChannel<LikeStreamConnection> {
  readonly logTypes: ReadonlySet<string> = new Set(['like.create']);

  constructor(private readonly ctx: PlatformContext) {}

  async dispatch(events: readonly LoggedEvent[], conns: readonly LikeStreamConnection[], send: Send<LikeStreamConnection>): Promise<void> {
    const ctx = this.ctx;
    const reads = new ResponseReads(ctx);
    const likes = events.map((e) => ({ event: e, like: likeOf(e) }));
    const posts = new Map((await reads.postsByIds(likes.map((l) => l.like.liked_post_id))).map((p) => [p.id, p]));
    const authors = new Map((await reads.usersByIds(likes.map((l) => l.like.liked_post_author_id))).map((u) => [u.id, u]));
    const rendered = new Map<string, string>();
    for (const { event, like } of likes) {
      const post = posts.get(like.liked_post_id);
      const author = authors.get(like.liked_post_author_id);
      if (!post || !author || !visibleTo(READABLE, author, undefined, {})) continue;
      like.attachments_media_keys = mediaKeysOf(post);
      for (const conn of conns) {
        if (conn.percent !== undefined && sampleBucket(like.id) >= conn.percent) continue;
        if (conn.partitions !== undefined && partitionOf(like.id, conn.partitions) !== conn.partition) continue;
        const key = `${conn.selectionKey}\u0000${[...conn.likeFields].sort().join(',')}\u0000${like.id}`;
        let text = rendered.get(key);
        if (text === undefined) {
          const hydrated = await hydrate(ctx, { now: ctx.clock.now() }, [like], likeExpansions, conn.selection, [], reads);
          const data: Record<string, unknown> = {};
          for (const name of LIKE_FIELDS) if (conn.likeFields.has(name) && (like as any)[name] !== undefined) data[name] = (like as any)[name];
          text = `${jsonText({ data, includes: hydrated.includes as Record<string, RawJson[]> | undefined, errors: errorsUnderBase(hydrated.errors, ctx.config.problemBase) })}\r\n`;
          rendered.set(key, text);
        }
        send(conn, event, text);
      }
    }
  }
}

function likeOf(event: LoggedEvent): LikeRow {
  const p = event.payload ?? {};
  return {
    id: String(p.id),
    created_at: String(p.created_at ?? event.created_at),
    timestamp_ms: Number(p.timestamp_ms ?? Date.parse(event.created_at)),
    liked_post_id: String(p.liked_post_id),
    liked_post_author_id: String(p.post_author_id),
  };
}
