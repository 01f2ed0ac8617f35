import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { idParams, userAuth } from '../graph/route-kit.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, writeResponse } from '../schemas.js';
import { createArticleDraft, publishArticle } from './service.js';

const writeAuth = userAuth('post.write', 'post.read', 'users.read');
const strict = { additionalProperties: false };
const index = (description: string) => Type.Integer({ minimum: 0, description });
const span = Type.Object({ from_index: index('Start index of the tagged span.'), to_index: index('End index of the tagged span.'), text: Type.String() }, strict);
const mediaItem = (description: string) =>
  Type.Object({ media_id: Type.String({ pattern: '^[0-9]{1,19}$', description }), media_category: Type.String({ description: 'The media category (e.g. tweet_image).' }) }, strict);

/** The DraftJS content state of an article (reference ArticleCreateDraftContentState). */
const contentState = Type.Object(
  {
    blocks: Type.Array(
      Type.Object(
        {
          text: Type.String(),
          type: Type.String({ enum: ['unstyled', 'header-one', 'header-two', 'header-three', 'unordered-list-item', 'ordered-list-item', 'blockquote', 'atomic'] }),
          key: Type.Optional(Type.String()),
          data: Type.Optional(
            Type.Object(
              { cashtags: Type.Optional(Type.Array(span)), hashtags: Type.Optional(Type.Array(span)), mentions: Type.Optional(Type.Array(span)), urls: Type.Optional(Type.Array(span)) },
              strict,
            ),
          ),
          entity_ranges: Type.Optional(
            Type.Array(Type.Object({ key: index('Index into the entities array.'), offset: index('Start offset in the text.'), length: index('Length of the entity range.') }, strict)),
          ),
          inline_style_ranges: Type.Optional(
            Type.Array(Type.Object({ offset: index('Start offset in the text.'), length: index('Length of the styled range.'), style: Type.String({ enum: ['bold', 'italic', 'strikethrough'] }) }, strict)),
          ),
        },
        strict,
      ),
    ),
    entities: Type.Array(
      Type.Object(
        {
          key: Type.String({ description: 'The entity key referenced by entity_ranges.' }),
          value: Type.Object(
            {
              type: Type.String({ enum: ['post', 'link', 'image', 'emoji', 'markdown', 'divider', 'latex'] }),
              mutability: Type.String({ enum: ['immutable', 'mutable', 'segmented'] }),
              data: Type.Object(
                {
                  caption: Type.Optional(Type.String()),
                  entity_key: Type.Optional(Type.String()),
                  markdown: Type.Optional(Type.String()),
                  media_items: Type.Optional(Type.Array(mediaItem('A media id of POST /2/media/upload.'))),
                  post_id: Type.Optional(Type.String({ pattern: '^[0-9]{1,19}$', description: 'The post to embed.' })),
                  url: Type.Optional(Type.String()),
                },
                strict,
              ),
            },
            strict,
          ),
        },
        strict,
      ),
    ),
  },
  strict,
);

/** Articles (spec 000 release history, Jun 11, 2026): draft, then publish as a post. */
export async function articleRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.post(
    '/2/articles/draft',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'articleCreateDraft',
        summary: 'Create a draft article',
        tags: ['Articles'],
        body: Type.Object(
          {
            title: Type.String({ minLength: 1, description: 'The title of the article; it becomes the text of the post that publishes it.' }),
            content_state: contentState,
            cover_media: Type.Optional(mediaItem('The media id of the cover, from POST /2/media/upload.')),
          },
          strict,
        ),
        response: { 201: writeResponse({ id: Type.String({ pattern: '^[0-9]{1,19}$' }), title: Type.String() }), default: defaultErrorResponse },
      },
    },
    async (request, reply) => reply.code(201).send({ data: await createArticleDraft(ctx, userCallerOf(ctx, request), request.body) }),
  );

  app.post(
    '/2/articles/:article_id/publish',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'articlePublish',
        summary: 'Publish a draft article as a post',
        tags: ['Articles'],
        params: idParams('article_id'),
        response: { 200: writeResponse({ post_id: Type.String() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await publishArticle(ctx, userCallerOf(ctx, request), request.params.article_id) }),
  );
}
