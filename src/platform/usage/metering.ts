import type { FastifyInstance, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { PlatformContext } from '../context.js';
import { fromJson } from '../../store/store.js';
import { ownedReadsPricing, type ChargeKind } from './prices.js';
import { checkUsageCap, knownUncapped, recordCharge, type Charge } from './service.js';
import { checkPostCap, knownBelowPostCap } from './post-reads.js';

/**
 * Metering of the platform interface: which operations cost credits and how many, read from the
 * routes themselves so a new route is priced by what it answers.
 * - A read is priced by the resources in its `data`: posts (post reads), users (user reads),
 *   direct-message events; on the release history's owned-reads endpoints, a user reading their
 *   own data pays the owned-reads price per resource from Apr 20, 2026.
 * - POST /2/posts: creating a post, a post containing a URL, or a summoned reply (a reply to
 *   another author, who must have summoned the replier); the pilot's content-create price before.
 * - Direct-message writes (the pilot's direct-message interaction) and likes, follows, reposts,
 *   bookmarks, blocks and mutes (user interaction).
 * Every priced operation first passes the usage cap check, and one that reads posts the tier's
 * post cap (post-reads.ts, which counts the posts read where they are rendered); the charge is
 * written once the answer succeeded, for pay-per-use apps only.
 */
type Pricing = { read: ChargeKind } | { write: 'post_create' | 'dm_interaction' | 'user_interaction' };

/** Spec 000: the endpoints that "qualify for the owned-reads price when reading own data". */
const OWNED_READ_ROUTES = new Set(
  ['bookmarks', 'blocking', 'muting', 'pinned_lists', 'posts', 'mentions', 'liked_posts', 'followers', 'following', 'owned_lists', 'followed_lists', 'list_memberships'].map(
    (p) => `/2/users/:id/${p}`,
  ),
);
const READ_KIND_BY_REF: Readonly<Record<string, ChargeKind>> = { Post: 'post_read', User: 'user_read', DmEvent: 'dm_event_read' };
const USER_INTERACTION = /^\/2\/users\/:[a-z_]+\/(likes|following|reposts|retweets|bookmarks|blocking|muting)(\/|$)/;
const DM_WRITE = /^\/2\/(dm_conversations|dm_events)(\/|$)/;

/** The $ref of the items of a 200 answer's `data` (a list or one object), if any. */
function dataRef(schema: any): string | undefined {
  const data = schema?.response?.[200]?.properties?.data;
  const item = data?.type === 'array' ? data.items : data;
  return typeof item?.$ref === 'string' ? item.$ref : undefined;
}

function pricingOf(method: string, url: string, schema: unknown): Pricing | undefined {
  if (method === 'GET') {
    const ref = dataRef(schema);
    const kind = ref ? READ_KIND_BY_REF[ref] : undefined;
    return kind ? { read: kind } : undefined;
  }
  if (method === 'POST' && url === '/2/posts') return { write: 'post_create' };
  if (method === 'HEAD' || method === 'OPTIONS') return undefined;
  if (DM_WRITE.test(url)) return { write: 'dm_interaction' };
  if ((method === 'POST' || method === 'DELETE') && USER_INTERACTION.test(url)) return { write: 'user_interaction' };
  return undefined;
}

function parsedBody(payload: unknown): any {
  if (typeof payload === 'string') return JSON.parse(payload);
  if (Buffer.isBuffer(payload)) return JSON.parse(payload.toString('utf8'));
  return undefined;
}

async function postCreationCharge(ctx: PlatformContext, id: string): Promise<Charge> {
  if (!ownedReadsPricing(ctx.clock.now())) return { kind: 'content_create', units: 1 };
  const post = await ctx.store.db.selectFrom('posts').select(['author_id', 'entities', 'in_reply_to_post_id', 'in_reply_to_user_id']).where('id', '=', id).executeTakeFirst();
  const urls = fromJson<{ urls?: unknown[] }>(post?.entities ?? null)?.urls ?? [];
  if (urls.length > 0) return { kind: 'post_create_url', units: 1 };
  // A reply to someone else's post: on self-serve tiers that author must have summoned the replier.
  if (post?.in_reply_to_post_id && post.in_reply_to_user_id && post.in_reply_to_user_id !== post.author_id) return { kind: 'summoned_reply', units: 1 };
  return { kind: 'post_create', units: 1 };
}

async function chargeOf(ctx: PlatformContext, request: FastifyRequest, pricing: Pricing, body: any): Promise<Charge | undefined> {
  if ('write' in pricing) {
    if (pricing.write === 'post_create') return typeof body?.data?.id === 'string' ? postCreationCharge(ctx, body.data.id) : undefined;
    return { kind: pricing.write, units: 1 };
  }
  const data = body?.data;
  const count = Array.isArray(data) ? data.length : data ? 1 : 0;
  if (count === 0) return undefined;
  const caller = request.caller;
  const ownId = caller && caller.kind !== 'app' ? caller.user.id : undefined;
  const pathId = (request.params as Record<string, string> | undefined)?.id;
  if (ownId && pathId === ownId && OWNED_READ_ROUTES.has(request.routeOptions.url ?? '') && ownedReadsPricing(ctx.clock.now())) {
    return { kind: 'owned_read', units: count };
  }
  return { kind: pricing.read, units: count };
}

/**
 * Installs the cap checks and the charging on every priced route registered after it, as that
 * route's own hooks: an unpriced route pays nothing, and a priced one answered for an app with
 * no cap reached and not on pay-per-use pays synchronous checks only.
 */
export function installUsageMetering(app: FastifyInstance, ctx: PlatformContext): void {
  app.addHook('onRoute', (route) => {
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    const pricing = pricingOf(method, route.url, route.schema);
    if (!pricing) return;
    const readsPosts = 'read' in pricing && pricing.read === 'post_read';
    const capCheck: preHandlerHookHandler = (request, _reply, done) => {
      const caller = request.caller;
      if (!caller) return done();
      const uncapped = knownUncapped(ctx, caller.app.id);
      const belowPostCap = !readsPosts || knownBelowPostCap(ctx, caller.app);
      if (uncapped && belowPostCap) return done();
      (async () => {
        if (!uncapped) await checkUsageCap(ctx, caller.app);
        if (!belowPostCap) await checkPostCap(ctx, caller.app);
      })().then(() => done(), done);
    };
    const charge: onSendHookHandler = (request, reply, payload, done) => {
      const caller = request.caller;
      if (!caller || caller.app.tier !== 'pay-per-use' || reply.statusCode < 200 || reply.statusCode >= 300) return done(null, payload);
      chargeOf(ctx, request, pricing, parsedBody(payload))
        .then((c) => (c ? recordCharge(ctx, caller.app, c) : undefined))
        // Metering never fails an answer that succeeded; the miss is logged.
        .catch((err: unknown) => request.log.error({ err }, 'usage charge not recorded'))
        .then(() => done(null, payload));
    };
    route.preHandler = [...hooksOf(route.preHandler), capCheck];
    route.onSend = [...hooksOf(route.onSend), charge];
  });
}

const hooksOf = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);
