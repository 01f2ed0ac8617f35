import { recordPromotedEngagement } from '../../ads/delivery/service.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { selectFields } from '../../http/fields.js';
import { toJson, type DbOrTx } from '../../store/store.js';
import { markMediaSource, mediaSourcePosts } from '../media/store.js';
import { editControlsOf, newEditControls } from './edit-window.js';
import { parseEntities } from './entities.js';
import { detectLang } from './lang.js';
import { contextAnnotationsOf } from './annotations.js';
import { insertPost } from './store.js';
import { editHistoryOf, mediaKeysOf, postDeclaration, type PostRow } from './wire.js';

export interface NewPost {
  authorId: string;
  text: string;
  createdAt: Date;
  replyTo?: PostRow;
  quoteOf?: PostRow;
  mediaKeys?: string[];
  lang?: string;
  source?: string;
  paidPartnership?: boolean;
  communityId?: string;
  /** With communityId: the post also reaches the author's followers (spec 000, POST /2/posts). */
  shareWithFollowers?: boolean;
  possiblySensitive?: boolean;
  /** A repost: a post of the reposter that references the source (type reposted). */
  repostOf?: PostRow;
  pollIds?: string[];
  replySettings?: string;
  /** A place of the gazetteer (geo.place_id). */
  placeId?: string;
  /** Promoted-only: readable by id, on no timeline and in no search. */
  nullcast?: boolean;
  madeWithAi?: boolean;
  dmDeepLink?: string;
}

/** How a post refers to another (referenced_posts[].type, 'tweet' renamed 'post' as the spec does). */
export const REFERENCE_COUNTERS = { replied_to: 'reply_count', quoted: 'quote_count', reposted: 'retweet_count' } as const;
type ReferenceType = keyof typeof REFERENCE_COUNTERS;

/** The text of a repost, as the public platform writes it: `RT @author: <text>`. */
export function repostText(authorUsername: string, source: PostRow): string {
  return `RT @${authorUsername}: ${source.text}`;
}

/** Builds the stored row of a new post: entities, conversation, references and edit controls. */
export function newPostRow(id: string, p: NewPost): PostRow {
  const referenced: Array<{ type: ReferenceType; id: string }> = [
    ...(p.repostOf ? [{ type: 'reposted' as const, id: p.repostOf.id }] : []),
    ...(p.replyTo ? [{ type: 'replied_to' as const, id: p.replyTo.id }] : []),
    ...(p.quoteOf ? [{ type: 'quoted' as const, id: p.quoteOf.id }] : []),
  ];
  const entities = parseEntities(p.text);
  return {
    id,
    author_id: p.authorId,
    text: p.text,
    created_at: p.createdAt.toISOString(),
    conversation_id: p.replyTo ? p.replyTo.conversation_id : id,
    in_reply_to_user_id: p.replyTo ? p.replyTo.author_id : null,
    referenced_posts: toJson(referenced),
    media_keys: toJson(p.mediaKeys ?? []),
    poll_ids: toJson(p.pollIds ?? []),
    // Set by recordPost, from the media rows it attaches.
    media_source_post_ids: null,
    lang: p.lang ?? (p.repostOf ? p.repostOf.lang : detectLang(p.text, entities, (p.mediaKeys ?? []).length > 0)),
    source: p.source ?? 'Plaza',
    possibly_sensitive: p.possiblySensitive ? 1 : 0,
    reply_settings: p.replySettings ?? 'everyone',
    entities: toJson(entities),
    context_annotations: toJson(contextAnnotationsOf(p.text, entities)),
    paid_partnership: p.paidPartnership ? 1 : 0,
    community_id: p.communityId ?? null,
    edit_history_post_ids: toJson([id]),
    ...(p.nullcast ? { nullcast: 1 } : {}),
    ...(p.madeWithAi ? { made_with_ai: 1 } : {}),
    ...(p.dmDeepLink ? { dm_deep_link: p.dmDeepLink } : {}),
    edit_controls: toJson(newEditControls(p.createdAt)),
    geo: p.placeId ? toJson({ place_id: p.placeId }) : null,
    withheld: null,
    scopes: null,
    retweet_count: 0,
    reply_count: 0,
    like_count: 0,
    quote_count: 0,
    bookmark_count: 0,
    impression_count: 0,
    deleted_at: null,
    in_reply_to_post_id: p.replyTo?.id ?? null,
    quoted_post_id: p.quoteOf?.id ?? null,
    reposted_post_id: p.repostOf?.id ?? null,
    share_with_followers: p.communityId && p.shareWithFollowers ? 1 : 0,
    reply_hidden: 0,
    superseded_by_id: null,
  };
}

/** What an edit changes: the content. Its place (conversation, reply, quote, community) stays. */
export interface PostEdit {
  text: string;
  createdAt: Date;
  mediaKeys?: string[];
  paidPartnership?: boolean;
  lang?: string;
  source?: string;
}

/**
 * The row of a new version of `previous` (spec 000 rule 2): a new id that joins the chain's
 * edit_history_post_ids, one edit fewer remaining, the same edit window (it runs from the first
 * version), and the engagement so far carried over so the latest version shows it.
 */
export function editedPostRow(id: string, previous: PostRow, edit: PostEdit): PostRow {
  const controls = editControlsOf(previous);
  const fresh = newPostRow(id, { authorId: previous.author_id, text: edit.text, createdAt: edit.createdAt, mediaKeys: edit.mediaKeys, lang: edit.lang, source: edit.source, paidPartnership: edit.paidPartnership });
  return {
    ...fresh,
    conversation_id: previous.conversation_id,
    in_reply_to_user_id: previous.in_reply_to_user_id,
    referenced_posts: previous.referenced_posts,
    in_reply_to_post_id: previous.in_reply_to_post_id,
    quoted_post_id: previous.quoted_post_id,
    community_id: previous.community_id,
    share_with_followers: previous.share_with_followers,
    reply_settings: previous.reply_settings,
    possibly_sensitive: previous.possibly_sensitive,
    reply_hidden: previous.reply_hidden,
    edit_history_post_ids: toJson([...(JSON.parse(previous.edit_history_post_ids) as string[]), id]),
    edit_controls: toJson({ edits_remaining: controls.edits_remaining - 1, editable_until: controls.editable_until }),
    retweet_count: previous.retweet_count,
    reply_count: previous.reply_count,
    like_count: previous.like_count,
    quote_count: previous.quote_count,
    bookmark_count: previous.bookmark_count,
    impression_count: previous.impression_count,
  };
}

/** The media a post counts toward its author's media_count: what it attaches itself (a repost attaches none). */
export const mediaCountOf = (row: PostRow): number => (JSON.parse(row.media_keys) as string[]).length;

/**
 * Where the media a new post attaches came from: the posts that first showed them, unless that is
 * a version of this post itself (an edit keeps its media), go into the row's
 * media_source_post_ids; media no post showed before are marked as first shown by this one.
 */
async function recordMediaSources(db: DbOrTx, row: PostRow): Promise<void> {
  const keys = mediaKeysOf(row);
  if (keys.length === 0) return;
  const own = new Set(editHistoryOf(row));
  const firstShown = await mediaSourcePosts(db, keys);
  const sources = [...new Set(keys.map((k) => firstShown.get(k)).filter((id): id is string => id !== undefined && !own.has(id)))];
  row.media_source_post_ids = sources.length > 0 ? toJson(sources) : null;
  await markMediaSource(db, keys, row.id);
}

/**
 * Stores a new post with the counters it moves (the author's post count and media count, the parent's reply,
 * quote or repost count) and its post.create event, all on `db` (pass the transaction). A new
 * version of an edited post (`edit`) moves no counter: its chain was counted once, when created.
 */
export async function recordPost(ctx: PlatformContext, db: DbOrTx, row: PostRow, opts: { edit?: boolean } = {}): Promise<void> {
  await recordMediaSources(db, row);
  await insertPost(db, row);
  await db
    .updateTable('users')
    .set((eb) =>
      opts.edit
        ? { most_recent_post_id: row.id }
        : { post_count: eb('post_count', '+', 1), media_count: eb('media_count', '+', mediaCountOf(row)), most_recent_post_id: row.id },
    )
    .where('id', '=', row.author_id)
    .execute();
  if (!opts.edit) {
    for (const ref of JSON.parse(row.referenced_posts) as Array<{ type: ReferenceType; id: string }>) {
      const column = REFERENCE_COUNTERS[ref.type];
      if (column) await db.updateTable('posts').set((eb) => ({ [column]: eb(column, '+', 1) })).where('id', '=', ref.id).execute();
      // A reply to or repost of a promoted post its author was shown counts for the promotion.
      const engagement = ref.type === 'replied_to' ? 'reply' : ref.type === 'reposted' ? 'repost' : undefined;
      if (engagement) await recordPromotedEngagement(ctx, db, row.author_id, { postId: ref.id }, engagement);
    }
  }
  await appendEvent(ctx, db, {
    type: 'post.create',
    subject: row.id,
    payload: selectFields(postDeclaration, row, new Set(Object.keys(postDeclaration.fields)), { now: ctx.clock.now() }),
  });
}
