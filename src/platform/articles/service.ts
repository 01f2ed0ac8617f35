import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { invalidParameter } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import { toJson, type DbOrTx } from '../../store/store.js';
import { requireWriteAccess } from '../graph/access.js';
import { requireVisiblePost } from '../graph/visibility.js';
import { findMediaByIdList } from '../media/store.js';
import { refuseSubtitleFile } from '../media/service.js';
import { newPostRow, recordPost } from '../posts/build.js';
import { MAX_POST_LENGTH, postLength } from '../posts/rules.js';
import { viewOf } from '../view.js';
import { findArticle, insertArticle, markPublished } from './store.js';
import { articleWire } from './wire.js';

/** The body of POST /2/articles/draft (reference ArticleCreateDraftRequest, 'tweet' renamed 'post'). */
export interface ArticleDraftBody {
  title: string;
  content_state: ContentState;
  cover_media?: MediaItem;
}

export interface MediaItem {
  media_id: string;
  media_category: string;
}

export interface ContentState {
  blocks: Array<{ text: string; type: string; key?: string; entity_ranges?: Array<{ key: number; offset: number; length: number }>; inline_style_ranges?: unknown[]; data?: unknown }>;
  entities: Array<{ key: string; value: { type: string; mutability: string; data: { post_id?: string; url?: string; markdown?: string; media_items?: MediaItem[]; caption?: string; entity_key?: string } } }>;
}

/** The reference: "Max weighted length is enforced by the Articles backend (10,000 per article)" for markdown. */
export const MAX_ARTICLE_MARKDOWN = 10_000;

const bad = (name: string, values: string[], message: string) => invalidParameter(name, values, message);

/** What the content state must hold together before anything is read: ranges inside their block, keys naming entities. */
function checkContentShape(body: ArticleDraftBody): void {
  if (body.title.trim().length === 0) throw bad('title', [body.title], 'The `title` body field must not be blank');
  // The title becomes the text of the post that publishes the article.
  if (postLength(body.title) > MAX_POST_LENGTH) throw bad('title', [], `The \`title\` body field may be at most ${MAX_POST_LENGTH} characters`);
  const { blocks, entities } = body.content_state;
  blocks.forEach((block, i) => {
    const length = postLength(block.text);
    for (const range of block.entity_ranges ?? []) {
      if (range.key >= entities.length) {
        throw bad(`content_state.blocks[${i}].entity_ranges`, [String(range.key)], `The entity range key [${range.key}] names no entry of \`content_state.entities\` (it has ${entities.length})`);
      }
      if (range.offset + range.length > length) {
        throw bad(`content_state.blocks[${i}].entity_ranges`, [String(range.offset)], `An entity range of block ${i} ends past its text (${length} characters)`);
      }
    }
  });
  let markdown = 0;
  entities.forEach((entity, i) => {
    const { type, data } = entity.value;
    const field = `content_state.entities[${i}].value.data`;
    if (type === 'post' && !data.post_id) throw bad(`${field}.post_id`, [], 'A post entity needs `data.post_id`, the post to embed');
    if (type === 'link' && !data.url) throw bad(`${field}.url`, [], 'A link entity needs `data.url`');
    if (type === 'image' && !data.media_items?.length) throw bad(`${field}.media_items`, [], 'An image entity needs `data.media_items`');
    if (type === 'markdown') {
      if (data.markdown === undefined) throw bad(`${field}.markdown`, [], 'A markdown entity needs `data.markdown`');
      markdown += postLength(data.markdown);
    }
  });
  if (markdown > MAX_ARTICLE_MARKDOWN) {
    throw bad('content_state.entities', [], `The markdown of an article may be at most ${MAX_ARTICLE_MARKDOWN} characters in all; this one has ${markdown}`);
  }
}

/** The media keys of media ids the caller uploaded (or may use); `video` says whether a video may stand here. */
async function ownedMediaKeys(db: DbOrTx, caller: UserCaller, items: ReadonlyArray<{ item: MediaItem; parameter: string; video: boolean }>): Promise<string[]> {
  const rows = await findMediaByIdList(db, [...new Set(items.map((i) => i.item.media_id))]);
  return items.map(({ item, parameter, video }) => {
    const row = rows.find((m) => m.id === item.media_id);
    const owners = (row?.additional_owners ? (JSON.parse(row.additional_owners) as string[]) : []);
    if (!row || (row.owner_user_id !== caller.user.id && !owners.includes(caller.user.id))) {
      throw bad(parameter, [item.media_id], `The \`${parameter}\` value [${item.media_id}] is not a media id you uploaded or may use`);
    }
    refuseSubtitleFile(parameter, row);
    if (!video && row.type === 'video') throw bad(parameter, [item.media_id], `The \`${parameter}\` value [${item.media_id}] is a video; an image entity shows images`);
    return row.media_key;
  });
}

/**
 * POST /2/articles/draft: a draft owned by the caller. The media it names must be the caller's,
 * the posts it embeds must exist and be visible to them; nothing is published yet.
 */
export async function createArticleDraft(ctx: PlatformContext, caller: UserCaller, body: ArticleDraftBody): Promise<{ id: string; title: string }> {
  requireWriteAccess(caller);
  checkContentShape(body);
  return ctx.store.db.transaction().execute(async (tx) => {
    const view = viewOf(ctx.clock, caller);
    const entities = body.content_state.entities;
    for (const [i, entity] of entities.entries()) {
      if (entity.value.type === 'post') await requireVisiblePost(ctx, tx, view, entity.value.data.post_id!, `content_state.entities[${i}].value.data.post_id`);
    }
    const images = entities.flatMap((entity, i) =>
      entity.value.type === 'image'
        ? (entity.value.data.media_items ?? []).map((item, j) => ({ item, parameter: `content_state.entities[${i}].value.data.media_items[${j}].media_id`, video: false }))
        : [],
    );
    const [cover] = body.cover_media ? await ownedMediaKeys(tx, caller, [{ item: body.cover_media, parameter: 'cover_media.media_id', video: true }]) : [];
    const mediaKeys = [...new Set(await ownedMediaKeys(tx, caller, images))];
    const id = ctx.ids.next();
    await insertArticle(tx, {
      id,
      author_id: caller.user.id,
      title: body.title,
      content_state: toJson(body.content_state),
      cover_media_key: cover ?? null,
      media_keys: toJson(mediaKeys),
      created_at: ctx.clock.now().toISOString(),
      published_at: null,
      post_id: null,
    });
    return { id, title: body.title };
  });
}

/**
 * POST /2/articles/{article_id}/publish: only the draft's author publishes it, once. Publishing
 * makes the article's post through the post-creation path (post.create event, timelines, search)
 * and links the two; the post's `article` field shows the article.
 */
export async function publishArticle(ctx: PlatformContext, caller: UserCaller, articleId: string): Promise<{ post_id: string }> {
  requireWriteAccess(caller);
  return ctx.store.db.transaction().execute(async (tx) => {
    const article = await findArticle(tx, articleId);
    if (!article) throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find a draft article with id: [${articleId}].`));
    if (article.author_id !== caller.user.id) {
      throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `Only the author of the article [${articleId}] may publish it.`));
    }
    if (article.post_id) {
      throw new ProblemError(409, problems.conflict(`The article [${articleId}] is already published, as post ${article.post_id}.`));
    }
    const id = ctx.ids.next();
    const now = ctx.clock.now();
    const row = { ...newPostRow(id, { authorId: caller.user.id, text: article.title, createdAt: now, source: caller.app.name }), article: toJson(articleWire(article)) };
    if (!(await markPublished(tx, articleId, id, now.toISOString()))) {
      throw new ProblemError(409, problems.conflict(`The article [${articleId}] is already published.`));
    }
    await recordPost(ctx, tx, row);
    return { post_id: id };
  });
}
