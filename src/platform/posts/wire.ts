import type { ResourceDeclaration } from '../../http/fields.js';
import { fromJson } from '../../store/store.js';
import type { PostTable } from '../../store/schema.js';
import type { View } from '../view.js';
import { editControlsOf, isEditEligible } from './edit-window.js';
import { articleOf } from '../articles/wire.js';
import { nonPublicMetrics, organicMetrics, promotedMetrics } from '../analytics/post-metrics.js';
import type { MediaRow } from '../media/wire.js';
import type { PostWire } from './schema.js';
import { shownText } from './shown-text.js';
import type { PromotedCounts } from '../analytics/post-metrics.js';

export type PostRow = PostTable;

const jsonArray = <T = unknown>(text: string | null): T[] => fromJson<T[]>(text) ?? [];
const nonEmpty = <T>(items: T[]): T[] | undefined => (items.length > 0 ? items : undefined);
const bool = (n: number) => n === 1;

/** The number of code points of `text` (what [...text].length counts), without building the array. */
function codePointLength(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        i++;
      }
    }
  }
  return length;
}

/** The entity kinds that have entries (empty kinds are left out), or undefined when none has. */
function presentEntities(text: string): Record<string, unknown[]> | undefined {
  const entities = fromJson<Record<string, unknown[]>>(text) ?? {};
  let kinds = 0;
  let present = 0;
  for (const kind in entities) {
    kinds++;
    const v = entities[kind];
    if (Array.isArray(v) && v.length > 0) present++;
  }
  if (present === 0) return undefined;
  // The usual case, every kind present: the parsed object is the answer, no copy needed.
  if (present === kinds) return entities;
  return Object.fromEntries(Object.entries(entities).filter(([, v]) => Array.isArray(v) && v.length > 0));
}

/** The post object: every field of the data dictionary, defaults id and text (spec 000). */
export const postDeclaration: ResourceDeclaration<PostRow, View, PostWire> = {
  resource: 'post',
  fieldsParam: 'post.fields',
  defaults: ['id', 'text'],
  fields: {
    id: (p) => p.id,
    // A long post shows its first 280 weighted characters here, and the whole in note_post.
    text: (p) => shownOf(p).text,
    attachments: (p) => {
      const media_keys = mediaKeysOf(p);
      const media_source_post_id = mediaSourcePostIdsOf(p);
      const poll_ids = pollIdsOf(p);
      if (media_keys.length === 0 && poll_ids.length === 0) return undefined;
      return { ...(media_keys.length ? { media_keys } : {}), ...(media_source_post_id.length ? { media_source_post_id } : {}), ...(poll_ids.length ? { poll_ids } : {}) };
    },
    author_id: (p) => p.author_id,
    community_id: (p) => p.community_id ?? undefined,
    context_annotations: (p) => nonEmpty(jsonArray(p.context_annotations)),
    conversation_id: (p) => p.conversation_id,
    created_at: (p) => p.created_at,
    display_text_range: (p) => [0, shownOf(p).length],
    edit_controls: (p) => {
      const controls = editControlsOf(p);
      return { edits_remaining: controls.edits_remaining, is_edit_eligible: isEditEligible(p), editable_until: controls.editable_until };
    },
    edit_history_post_ids: (p) => jsonArray<string>(p.edit_history_post_ids),
    entities: (p) => (shownOf(p).long ? entitiesWithin(p.entities, shownOf(p).length) : presentEntities(p.entities)),
    geo: (p) => fromJson(p.geo) ?? undefined,
    impression_count: (p) => p.impression_count,
    in_reply_to_user_id: (p) => p.in_reply_to_user_id ?? undefined,
    lang: (p) => p.lang,
    paid_partnership: (p) => bool(p.paid_partnership),
    possibly_sensitive: (p) => bool(p.possibly_sensitive),
    public_metrics: (p) => ({
      retweet_count: p.retweet_count,
      reply_count: p.reply_count,
      like_count: p.like_count,
      quote_count: p.quote_count,
      bookmark_count: p.bookmark_count,
      impression_count: p.impression_count,
    }),
    referenced_posts: (p) => nonEmpty(jsonArray(p.referenced_posts)),
    reply_settings: (p) => p.reply_settings,
    scopes: (p) => fromJson(p.scopes) ?? undefined,
    source: (p) => p.source,
    withheld: (p) => fromJson(p.withheld) ?? undefined,
    // Read from the row alone, so the default selection pays nothing for them.
    article: articleOf,
    article_title: (p) => {
      const title = articleOf(p)?.title;
      return title === undefined ? undefined : { title };
    },
    note_post: notePostOf,
    // Read from what hydrate loads for the response, only when selected (PostExtras).
    card_uri: (p, view) => extrasOf(view)?.cardUris?.get(p.id),
    media_metadata: (p, view) => mediaMetadataOf(p, extrasOf(view)?.media),
    // Community notes in Plaza are written in test mode only (the AI Note Writer interface) and
    // are never shown on posts; nothing matches media or suggests sources: always left out.
    matched_media_notes: () => undefined,
    note_request_suggestions: () => undefined,
    suggested_source_links: () => undefined,
    suggested_source_links_with_counts: () => undefined,
    non_public_metrics: nonPublicMetrics,
    organic_metrics: (p, view) => organicMetrics(p, view, extrasOf(view)?.promoted?.get(p.id)),
    promoted_metrics: (p, view) => promotedMetrics(p, view, extrasOf(view)?.promoted?.get(p.id)),
  },
};

/**
 * What post fields read besides the post row, loaded by hydrate only when one of them is
 * selected: the card URI of posts made through the advertising interface, the media rows of the
 * posts' attachments, and what promotion brought the viewer's own posts.
 */
export interface PostExtras {
  cardUris?: ReadonlyMap<string, string>;
  media?: ReadonlyMap<string, MediaRow>;
  /** What promotion brought the viewer's own posts (the metrics only their author sees). */
  promoted?: ReadonlyMap<string, PromotedCounts>;
}

/** The post fields that need PostExtras. */
export const EXTRA_FIELDS = ['card_uri', 'media_metadata', 'organic_metrics', 'promoted_metrics'] as const;

export type PostView = View & { postExtras?: PostExtras };
const extrasOf = (view: View) => (view as PostView).postExtras;

function mediaMetadataOf(p: PostRow, media: ReadonlyMap<string, MediaRow> | undefined) {
  if (!media) return undefined;
  const out = [];
  for (const key of mediaKeysOf(p)) {
    const m = media.get(key);
    if (m) out.push({ media_key: key, ...(m.alt_text ? { alt_text: m.alt_text } : {}) });
  }
  return nonEmpty(out);
}

/**
 * note_post: the public platform keeps a long post's whole text there, and the first 280
 * weighted characters in `text` (shownText). Plaza stores the whole text; a post whose text is
 * all shown has no note_post.
 */
function notePostOf(p: PostRow) {
  if (!shownOf(p).long) return undefined;
  const entities = presentEntities(p.entities);
  return { text: p.text, ...(entities ? { entities } : {}) };
}

/** The entities of the shown part of a long text (offsets in code points). */
function entitiesWithin(text: string, length: number): Record<string, unknown[]> | undefined {
  const all = presentEntities(text);
  if (!all) return undefined;
  const within = Object.entries(all)
    .map(([kind, list]) => [kind, (list as Array<{ end: number }>).filter((e) => e.end <= length)] as const)
    .filter(([, list]) => list.length > 0);
  return within.length > 0 ? Object.fromEntries(within) : undefined;
}

/**
 * What a row's JSON columns name, decoded once per row object (a response reads them for its
 * rules, its expansions and its fields). The arrays are shared: read only.
 */
function perRow<T>(derive: (p: PostRow) => T): (p: PostRow) => T {
  const known = new WeakMap<PostRow, T>();
  return (p) => {
    let value = known.get(p);
    if (value === undefined) known.set(p, (value = Object.freeze(derive(p)) as T));
    return value;
  };
}

export const referencedPostIds = perRow((p): string[] => (jsonArray(p.referenced_posts) as Array<{ id: string }>).map((r) => r.id));
export const mediaKeysOf = perRow((p): string[] => jsonArray(p.media_keys) as string[]);
export const pollIdsOf = perRow((p): string[] => jsonArray(p.poll_ids) as string[]);
/** The posts that first showed media this post attaches (attachments.media_source_post_id). */
export const mediaSourcePostIdsOf = perRow((p): string[] => jsonArray(p.media_source_post_ids) as string[]);
/** What `text` shows of a post, its length in code points, and whether the text goes on beyond it. */
const shownOf = perRow((p) => {
  const text = shownText(p.text);
  return { text, length: codePointLength(text), long: text !== p.text };
});
/** The place a post was made at (geo.place_id), when it names one. */
export const placeIdsOf = perRow((p): string[] => {
  const id = fromJson<{ place_id?: string }>(p.geo ?? 'null')?.place_id;
  return id ? [id] : [];
});
export const editHistoryOf = perRow((p): string[] => jsonArray(p.edit_history_post_ids) as string[]);
export const mentionedUsernames = perRow((p): string[] => ((fromJson<{ mentions?: Array<{ username: string }> }>(p.entities) ?? {}).mentions ?? []).map((m) => m.username));
