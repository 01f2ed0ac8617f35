import { Type } from '@sinclair/typebox';
import { appDialects, type AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import type { EventRow } from '../../events/log.js';
import { registerWebhookRouter } from '../../events/webhook-routers.js';
import { jsonText } from '../../http/json-body.js';
import { invalidParameter } from '../../http/params.js';
import type { Listener } from '../../http/server.js';
import type { DbOrTx, Store } from '../../store/store.js';
import { parseSelection, ResponseReads, selectionParams } from '../expansions.js';
import { idString, query } from '../graph/route-kit.js';
import { renderPosts } from '../graph/render.js';
import { postExpansions } from '../posts/service.js';
import { findPostsByIds } from '../posts/store.js';
import { editHistoryOf } from '../posts/wire.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse, ProblemSchema, writeResponse } from '../schemas.js';
import { findWebhookOfApp } from '../webhooks/store.js';
import { loadRuleSet, matchRuleSet, type MatchingRule, type RuleSet } from './book.js';
import { byRuleId } from './index.js';
import { matchablePosts } from './matchable.js';
import { requireEnterprise } from './service.js';
import { allStreamWebhooks, deleteStreamWebhook, ruleVersions, streamWebhooksOfApp, upsertStreamWebhook, type StreamWebhookRow } from './store.js';
import { errorsUnderBase } from '../../http/problems.js';
import { bodyToTweet } from '../../http/dialect/translate.js';

/**
 * Filtered-stream webhooks (spec 000, Sep 9, 2025; enterprise): a webhook of the app linked to its
 * filtered stream receives every matching public post, edits included (an edit is a new version,
 * a post.create of the log), as `{data, includes, matching_rules}` through the signed, retried
 * outbox. The link keeps the field selection it was made with.
 */

const WHAT = 'Filtered-stream webhooks';
/** The selection parameters a link may carry, in the order they are listed back. */
const selectionQuery = selectionParams(postExpansions);
const SELECTION_PARAMS = Object.keys(selectionQuery) as Array<keyof typeof selectionQuery>;

type SelectionQuery = Partial<Record<keyof typeof selectionQuery, string>>;

function unknownWebhook(id: string) {
  return invalidParameter('webhook_id', [id], `WebhookIdInvalid: no webhook with id [${id}] belongs to this app`);
}

/** POST /2/posts/search/webhooks/{webhook_id}: links (or re-links, with new fields) the webhook to the app's filtered stream. */
export async function linkStreamWebhook(ctx: PlatformContext, app: AppRow, webhookId: string, q: SelectionQuery) {
  requireEnterprise(ctx, app, WHAT);
  // Refuses unknown fields and expansions now, not at the first delivery.
  parseSelection(q, postExpansions);
  if (!(await findWebhookOfApp(ctx.store.db, app.id, webhookId))) throw unknownWebhook(webhookId);
  const fields: SelectionQuery = {};
  for (const name of SELECTION_PARAMS) if (typeof q[name] === 'string' && q[name] !== '') fields[name] = q[name];
  await upsertStreamWebhook(ctx.store.db, { webhook_id: webhookId, app_id: app.id, fields: JSON.stringify(fields), created_at: ctx.clock.now().toISOString() });
  return { data: { provisioned: true } };
}

/** GET /2/posts/search/webhooks: the app's links. */
export async function listStreamWebhooks(ctx: PlatformContext, app: AppRow) {
  requireEnterprise(ctx, app, WHAT);
  const rows = await streamWebhooksOfApp(ctx.store.db, app.id);
  const data = rows.map((r) => {
    const fields = JSON.parse(r.fields) as SelectionQuery;
    const link: Record<string, unknown> = {
      application_id: app.id,
      created_at: r.created_at,
      fields: SELECTION_PARAMS.flatMap((name) => (fields[name] ? [`${name}=${fields[name]}`] : [])),
      // One filtered-stream instance per app in Plaza: it is named by the app's id.
      instance_id: app.id,
      webhook_id: r.webhook_id,
    };
    if (app.owner_user_id) link.business_user_id = app.owner_user_id;
    return link;
  });
  return data.length > 0 ? { data } : {};
}

/** DELETE /2/posts/search/webhooks/{webhook_id}: unlinks the webhook (the webhook itself stays). */
export async function unlinkStreamWebhook(ctx: PlatformContext, app: AppRow, webhookId: string) {
  requireEnterprise(ctx, app, WHAT);
  if (!(await deleteStreamWebhook(ctx.store.db, app.id, webhookId))) throw unknownWebhook(webhookId);
  return { data: { deleted: true } };
}

/** The rule sets the router has indexed, per store, reloaded when their version moves. */
const routerSets = new WeakMap<Store, Map<string, RuleSet>>();

/** The current rule sets of these apps, read through `db` (the fan-out's transaction). */
async function currentSets(ctx: PlatformContext, db: DbOrTx, appIds: readonly string[]): Promise<Map<string, RuleSet>> {
  let sets = routerSets.get(ctx.store);
  if (!sets) routerSets.set(ctx.store, (sets = new Map()));
  const versions = await ruleVersions(db, appIds);
  for (const [appId, version] of versions) {
    if (sets.get(appId)?.version !== version) sets.set(appId, await loadRuleSet(ctx, db, appId));
  }
  return sets;
}

/**
 * The fan-out's router: each new post (or new version of an edited post) is matched against the
 * rules of every app with a linked webhook; a post whose author is protected goes to no one. The
 * filtered stream (src/platform/streams/posts.ts) decides the same way.
 */
export async function streamWebhookRouter(ctx: PlatformContext, db: DbOrTx, event: EventRow): Promise<Array<{ webhookId: string; body: unknown }>> {
  if (event.type !== 'post.create') return [];
  const links = await allStreamWebhooks(db);
  if (links.length === 0) return [];
  const [row] = await findPostsByIds(db, [event.subject]);
  if (!row) return [];
  // An edit of a matching post is delivered too: the new version matches on its own text, or on its earlier version's.
  const chain = editHistoryOf(row);
  const previous = chain.length > 1 ? chain[chain.length - 2] : undefined;
  const matchable = await matchablePosts(ctx, db, previous ? [row.id, previous] : [row.id]);
  const versions = [matchable.get(row.id), previous ? matchable.get(previous) : undefined].filter((p) => p !== undefined);
  if (versions.length === 0) return [];
  const byApp = new Map<string, StreamWebhookRow[]>();
  for (const l of links) byApp.set(l.app_id, [...(byApp.get(l.app_id) ?? []), l]);
  const sets = await currentSets(ctx, db, [...byApp.keys()]);
  const out: Array<{ webhookId: string; body: unknown }> = [];
  const reads = new ResponseReads(ctx, db);
  const dialects = await appDialects(db, [...byApp.keys()]);
  for (const [appId, appLinks] of byApp) {
    const set = sets.get(appId);
    if (!set) continue;
    const found = new Map<string, MatchingRule>();
    for (const version of versions) for (const r of matchRuleSet(set, version)) found.set(r.id, r);
    if (found.size === 0) continue;
    const matching = [...found.values()].sort((a, b) => byRuleId(a.id, b.id));
    for (const link of appLinks) {
      const body = await renderLine(ctx, reads, row, JSON.parse(link.fields) as SelectionQuery, matching);
      // Only public posts: an app-only view sees a protected author's post as hidden. Each app
      // receives the line in its dialect.
      if (body) out.push({ webhookId: link.webhook_id, body: dialects.get(appId) === 'tweet' ? bodyToTweet(body) : body });
    }
  }
  return out;
}

async function renderLine(ctx: PlatformContext, reads: ResponseReads, row: Parameters<typeof renderPosts>[3][number], fields: SelectionQuery, matching: unknown[]) {
  let selection;
  try {
    selection = parseSelection(fields, postExpansions);
  } catch {
    // A selection valid when linked that no longer is: the post with its default fields.
    selection = parseSelection({}, postExpansions);
  }
  // "matching public posts, including edit history": the history goes with every delivery.
  selection = { ...selection, post: new Set([...selection.post, 'edit_history_post_ids']) };
  const page = await renderPosts(ctx, { now: ctx.clock.now() }, selection, [row], undefined, reads);
  if (page.data.length === 0) return undefined;
  const rendered = JSON.parse(jsonText({ data: page.data[0], includes: page.includes as never, errors: errorsUnderBase(page.errors, ctx.config.problemBase) })) as Record<string, unknown>;
  return { ...rendered, matching_rules: matching };
}

registerWebhookRouter(streamWebhookRouter);

const tags = ['Webhooks'];
const appAuth = { schemes: ['app'] as 'app'[] };
const Errors = Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 }));

export async function streamWebhookRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  app.post(
    '/2/posts/search/webhooks/:webhook_id',
    {
      config: { auth: appAuth },
      schema: {
        operationId: 'createWebhooksStreamLink',
        summary: "Link a webhook to the app's filtered stream (enterprise)",
        description: 'Matching public posts, edits included, are delivered to the webhook as `{data, includes, matching_rules}`, rendered with the fields and expansions given here.',
        tags,
        params: Type.Object({ webhook_id: idString() }),
        querystring: query({ ...selectionQuery }),
        response: { 200: writeResponse({ provisioned: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => linkStreamWebhook(ctx, callerOf(request).app, request.params.webhook_id, request.query),
  );

  app.get(
    '/2/posts/search/webhooks',
    {
      config: { auth: appAuth },
      schema: {
        operationId: 'getWebhooksStreamLinks',
        summary: "The webhooks linked to the app's filtered stream (enterprise)",
        tags,
        response: {
          200: Type.Object({
            data: Type.Optional(
              Type.Array(
                Type.Object({
                  application_id: Type.String(),
                  business_user_id: Type.Optional(Type.String()),
                  created_at: Type.String(),
                  fields: Type.Array(Type.String()),
                  instance_id: Type.String(),
                  webhook_id: Type.String(),
                }),
              ),
            ),
            errors: Errors,
          }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => listStreamWebhooks(ctx, callerOf(request).app),
  );

  app.delete(
    '/2/posts/search/webhooks/:webhook_id',
    {
      config: { auth: appAuth },
      schema: {
        operationId: 'deleteWebhooksStreamLink',
        summary: "Unlink a webhook from the app's filtered stream (enterprise)",
        tags,
        params: Type.Object({ webhook_id: idString() }),
        response: { 200: writeResponse({ deleted: Type.Boolean() }), default: defaultErrorResponse },
      },
    },
    async (request) => unlinkStreamWebhook(ctx, callerOf(request).app, request.params.webhook_id),
  );
}
