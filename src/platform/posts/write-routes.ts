import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { parseSelectionText } from '../../http/fields.js';
import { EXCLUDE } from '../graph/query.js';
import { excludeParam, idParams, idString, listQuery, listRequest, query, userAuth, userOrAppAuth } from '../graph/route-kit.js';
import { callerOf, userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse, writeResponse } from '../schemas.js';
import { PostSchema } from './schema.js';
import { viewOf } from '../view.js';
import { createPost, type CreatePostBody } from './create.js';
import { deletePost, hideReply } from './delete.js';
import { quotePosts } from './quotes.js';
import { MAX_POST_LENGTH } from './rules.js';
import { postExpansions } from './service.js';

/** max_results of the quote posts of a post. */
const QUOTE_POSTS = { min: 10, max: 100, default: 10 };

const REPLY_SETTINGS = ['following', 'mentionedUsers', 'subscribers', 'verified'];
const writeAuth = userAuth('post.write', 'post.read', 'users.read');

const createBody = Type.Object(
  {
    text: Type.Optional(Type.String({ description: `The text, up to ${MAX_POST_LENGTH} characters; may be empty when media is attached.` })),
    reply: Type.Optional(
      Type.Object(
        {
          in_reply_to_post_id: idString('The post to reply to.'),
          exclude_reply_user_ids: Type.Optional(Type.Array(idString(), { description: 'Accepted for compatibility: Plaza adds no reply mentions to leave out.' })),
          auto_populate_reply_metadata: Type.Optional(Type.Boolean({ description: 'Accepted for compatibility: the text is posted as sent.' })),
        },
        { additionalProperties: false },
      ),
    ),
    quote_post_id: Type.Optional(idString('The post to quote.')),
    media: Type.Optional(
      Type.Object(
        {
          media_ids: Type.Array(idString(), { minItems: 1, maxItems: 4, description: 'Ids from POST /2/media/upload: up to 4 images, or one GIF, or one video.' }),
          tagged_user_ids: Type.Optional(Type.Array(idString(), { maxItems: 10 })),
        },
        { additionalProperties: false },
      ),
    ),
    poll: Type.Optional(
      Type.Object(
        {
          options: Type.Array(Type.String({ minLength: 1, maxLength: 25 }), { minItems: 2, maxItems: 4 }),
          duration_minutes: Type.Integer({ minimum: 5, maximum: 10080 }),
          reply_settings: Type.Optional(Type.String({ enum: REPLY_SETTINGS })),
        },
        { additionalProperties: false },
      ),
    ),
    paid_partnership: Type.Optional(Type.Boolean({ description: 'Discloses a paid promotion.' })),
    community_id: Type.Optional(idString('The community to post to; the author must be a member.')),
    share_with_followers: Type.Optional(Type.Boolean({ description: 'With community_id: also show the post to the author\'s followers.' })),
    reply_settings: Type.Optional(Type.String({ enum: REPLY_SETTINGS, description: 'Who besides the author may reply; everyone when absent.' })),
    edit_options: Type.Optional(
      Type.Object({ previous_post_id: idString('The post to edit: your own, at most one hour old; needs a paid subscription.') }, { additionalProperties: false }),
    ),
    geo: Type.Optional(Type.Object({ place_id: Type.Optional(Type.String({ maxLength: 32, description: 'A place of Plaza\'s gazetteer (the public platform\'s place ids), shown with the geo.place_id expansion.' })) }, { additionalProperties: false })),
    nullcast: Type.Optional(Type.Boolean({ description: 'Promoted-only: readable by id, on no timeline and in no search.' })),
    made_with_ai: Type.Optional(Type.Boolean({ description: 'Discloses that the post contains AI-generated media.' })),
    for_super_followers_only: Type.Optional(Type.Boolean({ description: 'An exclusive post for super followers; Plaza\'s accounts have no Super Follows, so true is refused (403).' })),
    direct_message_deep_link: Type.Optional(Type.String({ maxLength: 1000, description: 'A link that opens a direct message: https://x.com/messages/compose?recipient_id=<user id>.' })),
    card_uri: Type.Optional(Type.String({ maxLength: 64, description: 'A card made through the advertising interface (card://<card id>) on an account you may post for.' })),
  },
  { additionalProperties: false },
);

/** Writing posts: create (and edit), delete, hide replies; and the quote posts of a post. */
export async function postWriteRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.post(
    '/2/posts',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'createPosts',
        summary: 'Create a post, reply, quote, poll or community post; or edit one of your posts',
        tags: ['Posts'],
        body: createBody,
        response: {
          201: Type.Object({ data: Type.Object({ id: idString(), text: Type.String(), edit_history_post_ids: Type.Array(Type.String()) }) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return { data: await createPost(ctx, userCallerOf(ctx, request), request.body as CreatePostBody) };
    },
  );

  app.delete(
    '/2/posts/:id',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'deletePosts',
        summary: 'Delete one of your posts (with every version of it)',
        tags: ['Posts'],
        params: idParams('id'),
        response: { 200: writeResponse({ deleted: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await deletePost(ctx, userCallerOf(ctx, request), request.params.id) }),
  );

  app.put(
    '/2/posts/:id/hidden',
    {
      config: { auth: userAuth('post.moderate.write', 'post.read', 'users.read') },
      schema: {
        operationId: 'hidePostsReply',
        summary: 'Hide or unhide a reply in a conversation you started',
        tags: ['Posts'],
        params: idParams('id'),
        body: Type.Object({ hidden: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: writeResponse({ hidden: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => ({ data: await hideReply(ctx, userCallerOf(ctx, request), request.params.id, request.body.hidden) }),
  );

  app.get(
    '/2/posts/:id/quote_posts',
    {
      config: { auth: userOrAppAuth('post.read', 'users.read') },
      schema: {
        operationId: 'getPostsQuotedPosts',
        summary: 'Posts quoting a post, newest first (enterprise tier since Apr 20, 2026)',
        tags: ['Posts'],
        params: idParams('id'),
        querystring: query({ ...listQuery(QUOTE_POSTS, postExpansions).properties, exclude: excludeParam }),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      const q = request.query;
      const excludeReplies = parseSelectionText('exclude', q.exclude, EXCLUDE).has('replies');
      return pageBody(await quotePosts(ctx, caller, viewOf(ctx.clock, caller), request.params.id, { ...listRequest(q, QUOTE_POSTS, postExpansions), excludeReplies }));
    },
  );
}
