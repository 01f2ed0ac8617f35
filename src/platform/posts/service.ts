import type { PlatformContext } from '../context.js';
import type { WireItem } from '../../http/json-body.js';
import type { Problem } from '../../http/problems.js';
import { expansionsOf, hiddenPosts, hydrate, ResponseReads, type ExpansionDeclarations, type Includes, type Selection } from '../expansions.js';
import type { DbOrTx } from '../../store/store.js';
import type { View } from '../view.js';
import { addImpressions } from './store.js';
import { recordMediaViews } from '../media/manage.js';
import { recordImpressions } from '../analytics/recording.js';
import { countPostsRead } from '../usage/post-reads.js';
import { editHistoryOf, mediaKeysOf, mentionedUsernames, mediaSourcePostIdsOf, placeIdsOf, pollIdsOf, postDeclaration, referencedPostIds, type PostRow } from './wire.js';
import { articleCoverKeys, articleMediaKeys } from '../articles/wire.js';
import { problems } from '../../http/problems.js';

const none = () => [];

const author = (p: PostRow) => [p.author_id];

/**
 * The expansions a post response accepts (spec 000, with 'post' for 'tweet'), and those the
 * public description adds: `username` (the author, as the post's own username field names it),
 * `referenced_posts` (the referenced posts, as referenced_posts.id) and
 * attachments.media_source_post (the posts that first showed media the post attaches,
 * attachments.media_source_post_id).
 */
export const postExpansions: ExpansionDeclarations<PostRow> = expansionsOf(postDeclaration, {
  author_id: { target: 'users', keys: author },
  username: { target: 'users', keys: author },
  in_reply_to_user_id: { target: 'users', keys: (p) => (p.in_reply_to_user_id ? [p.in_reply_to_user_id] : []) },
  'entities.mentions.username': { target: 'usersByUsername', keys: mentionedUsernames },
  // The mentions of a long post's whole text (note_post.entities): Plaza's text is the whole text.
  'entities.note.mentions.username': { target: 'usersByUsername', keys: mentionedUsernames, field: 'note_post' },
  'attachments.media_keys': { target: 'media', keys: mediaKeysOf },
  'attachments.poll_ids': { target: 'polls', keys: pollIdsOf },
  'attachments.media_source_post': { target: 'posts', keys: mediaSourcePostIdsOf },
  'geo.place_id': { target: 'places', keys: placeIdsOf },
  referenced_posts: { target: 'posts', keys: referencedPostIds },
  'referenced_posts.id': { target: 'posts', keys: referencedPostIds },
  'referenced_posts.id.author_id': { target: 'users', keys: none, through: referencedPostIds, keysOfThrough: (p) => [p.author_id] },
  'referenced_posts.id.attachments.media_keys': { target: 'media', keys: none, through: referencedPostIds, keysOfThrough: mediaKeysOf },
  edit_history_post_ids: { target: 'posts', keys: (p) => editHistoryOf(p).filter((id) => id !== p.id) },
  'article.cover_media': { target: 'media', keys: articleCoverKeys },
  'article.media_entities': { target: 'media', keys: articleMediaKeys },
});

export interface PostsResponse {
  data?: Record<string, unknown>[] | Record<string, unknown>;
  includes?: Includes;
  errors?: Problem[];
}

/**
 * Post lookup: found posts in request order in `data`; a resource-not-found item per unknown
 * id and a not-authorized-for-resource item per hidden one in `errors`, with HTTP 200. `posts`
 * are the rows of what `data` shows.
 */
export async function lookupPosts(
  ctx: PlatformContext,
  view: View,
  ids: readonly string[],
  parameter: 'ids' | 'id',
  selection: Selection,
  db: DbOrTx = ctx.store.db,
): Promise<{ data: WireItem[]; includes?: Includes; errors: Problem[]; posts: PostRow[] }> {
  const reads = new ResponseReads(ctx, db);
  const rows = await reads.postsByIds(ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const hidden = await hiddenPosts(ctx, view, rows, reads);
  const errors: Problem[] = [];
  const found: PostRow[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) errors.push(problems.resourceNotFound({ parameter, value: id, resource_id: id, resource_type: 'post' }));
    else if (hidden.has(id)) {
      errors.push(problems.notAuthorizedForResource({ value: id, resource_id: id, resource_type: 'post', section: 'data', parameter }));
    } else found.push(row);
  }
  const hydrated = await hydrate(ctx, view, found, postExpansions, selection, [], reads);
  return {
    data: found.map(hydrated.post),
    includes: hydrated.includes,
    errors: [...errors, ...hydrated.errors],
    posts: found,
  };
}

/**
 * Post lookup as a person sees it: the lookup, then one impression for each post returned in
 * `data` to a signed-in user who is not its author (and one view of the videos and GIFs it
 * carries). App-only reads are no one's view and count no impression. Every post returned counts
 * as one read by the caller's app. The response shows the counts from before this view.
 */
export async function viewPosts(
  ctx: PlatformContext,
  view: View,
  ids: readonly string[],
  parameter: 'ids' | 'id',
  selection: Selection,
): Promise<{ data: WireItem[]; includes?: Includes; errors: Problem[] }> {
  const { posts, ...result } = await lookupPosts(ctx, view, ids, parameter, selection);
  countPostsRead(ctx, view.appId, posts);
  if (view.viewerId && posts.length > 0) {
    const others = posts.filter((p) => p.author_id !== view.viewerId);
    await addImpressions(ctx.store.db, view.viewerId, others, others.flatMap(mediaKeysOf));
    await recordMediaViews(ctx, ctx.store.db, others.flatMap(mediaKeysOf));
    recordImpressions(ctx, view.viewerId, others);
  }
  return result;
}
