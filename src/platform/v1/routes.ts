import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PlatformContext } from '../context.js';
import { createMediaMetadata } from '../media/manage.js';
import { findPostsByIds } from '../posts/store.js';
import { allPostFields, v1Status, v1User } from './wire.js';
import { installV1Errors, sendJson, V1Error, v1Caller } from './http.js';

/**
 * The v1.1 endpoints SDKs still call on startup or for media (issue 34), in the public platform's
 * v1.1 shapes: GET /1.1/account/verify_credentials.json (tweepy's API.verify_credentials, many
 * bots' first call) and POST /1.1/media/metadata/create.json (alt text; twitter-api-v2's
 * v1.createMediaMetadata). The v1.1 media upload is src/platform/media/v1-upload-routes.ts.
 */

/** A v1.1 boolean parameter: true, t or 1 (any case) is true; absent is `fallback`. */
function flag(request: FastifyRequest, name: string, fallback: boolean): boolean {
  const raw = (request.query as Record<string, unknown> | undefined)?.[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string') throw new V1Error(400, 44, `${name} parameter is invalid.`);
  if (/^(true|t|1)$/i.test(raw)) return true;
  if (/^(false|f|0)$/i.test(raw)) return false;
  throw new V1Error(400, 44, `${name} parameter is invalid.`);
}

const METADATA_LIMIT = 16 * 1024;

export function v1Routes(ctx: PlatformContext) {
  return async function routes(app: FastifyInstance): Promise<void> {
    installV1Errors(app, `The request is larger than ${METADATA_LIMIT} bytes.`);

    app.get('/1.1/account/verify_credentials.json', { schema: { hide: true } }, async (request, reply) => {
      const caller = await v1Caller(ctx, request, reply);
      const includeEntities = flag(request, 'include_entities', true);
      const skipStatus = flag(request, 'skip_status', false);
      const includeEmail = flag(request, 'include_email', false);
      // verify_credentials adds email and status to the user object.
      const user: Record<string, unknown> = v1User(caller.user);
      if (includeEmail) user.email = caller.user.email ?? null;
      const latest = caller.user.most_recent_post_id;
      if (!skipStatus && latest) {
        const [row] = await findPostsByIds(ctx.store.db, [latest]);
        if (row) {
          const { user: _self, ...status } = v1Status(allPostFields(row, ctx.clock.now()), { author: caller.user });
          user.status = includeEntities ? status : { ...status, entities: undefined };
        }
      }
      return sendJson(reply, 200, JSON.stringify(user));
    });

    app.post('/1.1/media/metadata/create.json', { bodyLimit: METADATA_LIMIT, schema: { hide: true } }, async (request, reply) => {
      const caller = await v1Caller(ctx, request, reply);
      const body = request.body;
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new V1Error(400, 38, 'The body is a JSON object: {"media_id": "...", "alt_text": {"text": "..."}}.');
      const { media_id: mediaId, alt_text: altText } = body as Record<string, unknown>;
      if (mediaId === undefined) throw new V1Error(400, 38, 'media_id parameter is missing.');
      if ((typeof mediaId !== 'string' && typeof mediaId !== 'number') || !/^[0-9]{1,19}$/.test(String(mediaId))) throw new V1Error(400, 44, 'media_id parameter is invalid.');
      if (altText === undefined) throw new V1Error(400, 38, 'alt_text parameter is missing.');
      const text = (altText as { text?: unknown } | null)?.text;
      if (typeof text !== 'string') throw new V1Error(400, 44, 'alt_text parameter is invalid: {"text": "..."}.');
      await createMediaMetadata(ctx, caller, String(mediaId), { alt_text: { text } });
      // The public platform answers 200 with an empty body.
      return reply.code(200).send();
    });
  };
}
