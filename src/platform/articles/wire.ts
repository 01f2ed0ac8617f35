import { fromJson } from '../../store/store.js';
import type { PostRow } from '../posts/wire.js';
import type { ArticleRow } from './store.js';
import type { ContentState } from './service.js';

/** The `article` post field: what a reader of the post sees of the article it published. */
export interface ArticleWire {
  title: string;
  preview_text?: string;
  plain_text?: string;
  cover_media?: string;
  media_entities?: string[];
}

/** How much of the body the preview shows, in code points. */
const PREVIEW_LENGTH = 200;

/** The body as text: the text blocks in order, one a line; atomic blocks (embeds) carry no prose. */
export function plainTextOf(content: ContentState): string {
  return content.blocks
    .filter((b) => b.type !== 'atomic')
    .map((b) => b.text)
    .join('\n')
    .trim();
}

export function articleWire(article: ArticleRow): ArticleWire {
  const plain = plainTextOf(JSON.parse(article.content_state) as ContentState);
  const points = [...plain];
  const mediaKeys = JSON.parse(article.media_keys) as string[];
  return {
    title: article.title,
    ...(plain ? { preview_text: points.length > PREVIEW_LENGTH ? `${points.slice(0, PREVIEW_LENGTH).join('')}…` : plain } : {}),
    ...(plain ? { plain_text: plain } : {}),
    ...(article.cover_media_key ? { cover_media: article.cover_media_key } : {}),
    ...(mediaKeys.length ? { media_entities: mediaKeys } : {}),
  };
}

const parsed = new WeakMap<PostRow, ArticleWire | null>();
/** The article a post published, parsed once per row object. */
export function articleOf(p: PostRow): ArticleWire | undefined {
  if (!p.article) return undefined;
  let value = parsed.get(p);
  if (value === undefined) parsed.set(p, (value = fromJson<ArticleWire>(p.article)));
  return value ?? undefined;
}

export const articleCoverKeys = (p: PostRow): string[] => {
  const cover = articleOf(p)?.cover_media;
  return cover ? [cover] : [];
};
export const articleMediaKeys = (p: PostRow): string[] => articleOf(p)?.media_entities ?? [];
