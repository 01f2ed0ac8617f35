import { Type } from '@sinclair/typebox';
import { installWorldRouting, type WorldRouting } from '../worlds/routing.js';
import swagger from '@fastify/swagger';
import type { PlatformContext } from './context.js';
import { describeListParams } from '../http/fields.js';
import type { Metrics } from '../http/metrics.js';
import { installPlatformErrors } from '../http/platform-errors.js';
import { installNulGuard } from '../http/nul.js';
import { createListener, type Listener } from '../http/server.js';
import { installTweetDialect, rewriteTweetUrl } from '../http/dialect/plugin.js';
import { openApiToTweet } from '../http/dialect/openapi.js';
import { blockRoutes } from './blocks/routes.js';
import { bookmarkRoutes } from './bookmarks/routes.js';
import { communityRoutes } from './communities/routes.js';
import { complianceRoutes } from './compliance/routes.js';
import { dmRoutes } from './dm/routes.js';
import { chatRoutes } from './chats/routes.js';
import { followRoutes } from './follows/routes.js';
import { likeRoutes } from './likes/routes.js';
import { listRoutes } from './lists/routes.js';
import { mediaRoutes } from './media/routes.js';
import { v1MediaUploadRoutes } from './media/v1-upload-routes.js';
import { v1Routes } from './v1/routes.js';
import { muteRoutes } from './mutes/routes.js';
import { oauthTokenRoutes } from '../auth/flows/routes.js';
import { webPages } from '../web/plugin.js';
import { postRoutes } from './posts/routes.js';
import { postWriteRoutes } from './posts/write-routes.js';
import { installRouteAuth } from './route-auth.js';
import { installPlatformRateLimits } from './rate-limits/install.js';
import { sharedSchemas } from './schemas.js';
import { repostRoutes } from './reposts/routes.js';
import { spaceRoutes } from './spaces/routes.js';
import { timelineRoutes } from './timelines/routes.js';
import { userProfileRoutes } from './users/profile-routes.js';
import { userRoutes } from './users/routes.js';
import { affiliateRoutes } from './users/affiliates-routes.js';
import { webhookRoutes } from './webhooks/routes.js';
import { accountActivityRoutes } from './account-activity/routes.js';
import { activityRoutes } from './activity/routes.js';
import { searchRoutes } from './search/routes.js';
import { connectionRoutes } from './streams/connections-routes.js';
import { streamRoutes } from './streams/routes.js';
import { streamRuleRoutes } from './stream-rules/routes.js';
import { newsRoutes } from './news/routes.js';
import { noteRoutes } from './notes/routes.js';
import { installUsageMetering } from './usage/metering.js';
import { usageRoutes } from './usage/routes.js';
import { broadcastRoutes } from './broadcasts/routes.js';
import { trendRoutes } from './trends/routes.js';
import { articleRoutes } from './articles/routes.js';
import { analyticsRoutes } from './analytics/routes.js';

/** The description version the spec names (spec 000 "What the service does"). */
export const PLATFORM_DESCRIPTION_VERSION = '2.166';

const TAGS = [
  'Account Activity', 'Articles', 'Bookmarks', 'Broadcasts', 'Chats', 'Compliance', 'Connections', 'Direct Messages', 'General', 'Lists',
  'Marketplace', 'Media', 'MediaUpload', 'News', 'Spaces', 'Stream', 'Posts', 'Users', 'Webhooks', 'Community Notes', 'Usage',
];

/** The platform interface v2 listener: routes, auth, problems and its OpenAPI description. */
export async function buildPlatform(ctx: PlatformContext, metrics: Metrics, routing?: WorldRouting): Promise<Listener> {
  const app = await createListener(ctx.config, metrics, 'platform', { rewriteUrl: rewriteTweetUrl });
  // First: every later hook and the handler run in the request's world.
  if (routing) installWorldRouting(app, routing);
  installPlatformErrors(app, ctx);
  installRouteAuth(app, ctx);
  installPlatformRateLimits(app, ctx);
  installUsageMetering(app, ctx);
  installTweetDialect(app);
  installNulGuard(app);
  for (const schema of sharedSchemas) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Plaza platform interface v2',
        description: 'Posts, users, media, webhooks and the rest of the platform interface, served by Plaza.',
        version: PLATFORM_DESCRIPTION_VERSION,
      },
      tags: TAGS.map((name) => ({ name })),
      components: {
        securitySchemes: {
          BearerToken: { type: 'http', scheme: 'bearer' },
          UserToken: { type: 'http', scheme: 'OAuth' },
        },
      },
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documentObject) => {
      const document = 'openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject;
      describeListParams(document as Parameters<typeof describeListParams>[0]);
      return document;
    },
  });

  await app.register(async (routes) => {
    await postRoutes(routes as Listener, ctx);
    await userRoutes(routes as Listener, ctx);
    await affiliateRoutes(routes as Listener, ctx);
    await webhookRoutes(routes as Listener, ctx);
    await accountActivityRoutes(routes as Listener, ctx);
    await followRoutes(routes as Listener, ctx);
    await likeRoutes(routes as Listener, ctx);
    await bookmarkRoutes(routes as Listener, ctx);
    await blockRoutes(routes as Listener, ctx);
    await muteRoutes(routes as Listener, ctx);
    await timelineRoutes(routes as Listener, ctx);
    await listRoutes(routes as Listener, ctx);
    await spaceRoutes(routes as Listener, ctx);
    await dmRoutes(routes as Listener, ctx);
    await chatRoutes(routes as Listener, ctx);
    await userProfileRoutes(routes as Listener, ctx);
    await mediaRoutes(routes as Listener, ctx);
    await postWriteRoutes(routes as Listener, ctx);
    await repostRoutes(routes as Listener, ctx);
    await communityRoutes(routes as Listener, ctx);
    await complianceRoutes(routes as Listener, ctx);
    await activityRoutes(routes as Listener, ctx);
    await searchRoutes(routes as Listener, ctx);
    await streamRoutes(routes as Listener, ctx);
    await connectionRoutes(routes as Listener, ctx);
    await streamRuleRoutes(routes as Listener, ctx);
    await newsRoutes(routes as Listener, ctx);
    await noteRoutes(routes as Listener, ctx);
    await usageRoutes(routes as Listener, ctx);
    await broadcastRoutes(routes as Listener, ctx);
    await trendRoutes(routes as Listener, ctx);
    await articleRoutes(routes as Listener, ctx);
    await analyticsRoutes(routes as Listener, ctx);
  });
  await app.register(oauthTokenRoutes(ctx));
  await app.register(v1MediaUploadRoutes(ctx));
  await app.register(v1Routes(ctx));
  await app.register(webPages(ctx));

  app.get(
    '/2/openapi.json',
    {
      schema: {
        operationId: 'getOpenApiSpec',
        summary: "This interface's OpenAPI description (the tweet dialect's is /2/openapi-tweets.json)",
        tags: ['General'],
        // Public, as on the public platform: no credentials.
        security: [],
        response: { 200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3 document.' }) },
      },
    },
    async () => app.swagger(),
  );
  let tweetDocument: Record<string, unknown> | undefined;
  app.get('/2/openapi-tweets.json', { schema: { hide: true } }, async () => (tweetDocument ??= openApiToTweet(app.swagger() as Record<string, any>)));
  return app;
}
