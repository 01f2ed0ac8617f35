import type { Caller } from '../../auth/authenticate.js';
import { scopeAllowedAt } from '../../auth/flows/scopes.js';
import type { AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { decodePageToken, encodePageToken, parseMaxResults } from '../../http/pagination.js';
import { invalidParameter, parseIdList } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import { isUniqueViolation } from '../../store/store.js';
import {
  ACTIVITY_EVENT_TYPES,
  DIRECTION_SINCE,
  DOT_NAMES_ONLY_SINCE,
  isAvailable,
  KEYWORD_LIMITS,
  PASCAL_CASE_NAMES,
  type ActivityEventType,
  type ActivityFilter,
  type Direction,
} from './event-types.js';
import {
  countSubscriptionsOfApp,
  deleteSubscriptionsOfApp,
  findDuplicateSubscription,
  findSubscriptionOfApp,
  insertSubscription,
  listSubscriptionsOfApp,
  lockAppSubscriptions,
  updateSubscription as updateSubscriptionRow,
  webhookBelongsToApp,
  type ActivitySubscriptionRow,
} from './store.js';

/** Subscriptions an app may hold (shared/reference/platform.md §7): self-serve 1,500, enterprise 75,000. */
export const SUBSCRIPTION_CAPS = { selfServe: 1_500, enterprise: 75_000 } as const;
const capOf = (app: AppRow) => (app.tier === 'enterprise' ? SUBSCRIPTION_CAPS.enterprise : SUBSCRIPTION_CAPS.selfServe);

const LIST_RANGE = { min: 1, max: 1000, default: 100 };

export interface NewSubscription {
  event_type: string;
  filter: ActivityFilter;
  tag?: string;
  webhook_id?: string;
}

export interface SubscriptionWire {
  subscription_id: string;
  event_type: string;
  filter: ActivityFilter;
  created_at: string;
  updated_at: string;
  tag?: string;
  webhook_id?: string;
}

export function filterOf(row: ActivitySubscriptionRow): ActivityFilter {
  const filter: ActivityFilter = {};
  if (row.user_id !== null) filter.user_id = row.user_id;
  if (row.keyword !== null) filter.keyword = row.keyword;
  if (row.direction !== null) filter.direction = JSON.parse(row.direction) as ActivityFilter['direction'];
  return filter;
}

export function subscriptionWire(row: ActivitySubscriptionRow): SubscriptionWire {
  return {
    subscription_id: row.id,
    event_type: row.event_type,
    filter: filterOf(row),
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.tag !== null ? { tag: row.tag } : {}),
    ...(row.webhook_id !== null ? { webhook_id: row.webhook_id } : {}),
  };
}

const day = (iso: string) => new Date(`${iso}T00:00:00.000Z`).toUTCString().slice(5, 16);

/**
 * The event type a name stands for. The PascalCase profile names are the dot-separated ones'
 * old names: accepted before Mar 18, 2026, refused from then on naming the new name (spec 000
 * release history). A type that does not exist yet by the clock is refused too.
 */
export function resolveEventType(ctx: PlatformContext, name: string): ActivityEventType {
  const now = ctx.clock.now();
  const renamed = PASCAL_CASE_NAMES[name];
  if (renamed && now.toISOString().slice(0, 10) >= DOT_NAMES_ONLY_SINCE) {
    throw invalidParameter('event_type', [name], `The \`event_type\` value [${name}] is no longer accepted: use [${renamed}]`);
  }
  const type = ACTIVITY_EVENT_TYPES.get(renamed ?? name);
  if (!type) throw invalidParameter('event_type', [name], `The \`event_type\` value [${name}] is not an activity event type`);
  if (!isAvailable(type, now)) {
    throw invalidParameter('event_type', [name], `The \`event_type\` value [${name}] is not available before ${day(type.since)}`);
  }
  return type;
}

const DIRECTIONS: readonly Direction[] = ['sent', 'received'];

function checkDirection(ctx: PlatformContext, type: ActivityEventType, raw: unknown): ActivityFilter['direction'] {
  const shown = Array.isArray(raw) ? raw.map(String) : [String(raw)];
  const bad = (why: string) => invalidParameter('filter.direction', shown, `The \`filter.direction\` value [${shown.join(', ')}] ${why}`);
  if (ctx.clock.now().toISOString().slice(0, 10) < DIRECTION_SINCE) throw bad(`is not available before ${day(DIRECTION_SINCE)}`);
  if (!type.direction) throw bad(`does not apply to ${type.name} events: only direct-message and chat events take a direction`);
  const values = Array.isArray(raw) ? raw : [raw];
  if (values.length === 0 || values.length > 2 || !values.every((v) => DIRECTIONS.includes(v as Direction)) || new Set(values).size !== values.length) {
    throw bad('must be sent, received, or both');
  }
  return Array.isArray(raw) ? (raw as Direction[]) : (raw as Direction);
}

/** The filter, checked against what the event type takes. */
function checkFilter(ctx: PlatformContext, type: ActivityEventType, filter: ActivityFilter): ActivityFilter {
  const out: ActivityFilter = {};
  if (filter.user_id !== undefined) {
    if (type.user === 'none') throw invalidParameter('filter.user_id', [filter.user_id], `${type.name} subscriptions take no \`filter.user_id\``);
    out.user_id = filter.user_id;
  } else if (type.user === 'required') {
    throw invalidParameter('filter.user_id', [], `${type.name} subscriptions need a \`filter.user_id\``);
  }
  if (filter.keyword !== undefined) {
    const keyword = filter.keyword;
    const length = [...keyword].length;
    if (!type.keyword) throw invalidParameter('filter.keyword', [keyword], `${type.name} subscriptions take no \`filter.keyword\`: keywords are for high-volume event types`);
    if (length < KEYWORD_LIMITS.min || length > KEYWORD_LIMITS.max || keyword.trim().length === 0) {
      throw invalidParameter('filter.keyword', [keyword], `The \`filter.keyword\` value must be ${KEYWORD_LIMITS.min} to ${KEYWORD_LIMITS.max} characters long`);
    }
    out.keyword = keyword;
  }
  if (filter.direction !== undefined) out.direction = checkDirection(ctx, type, filter.direction);
  return out;
}

/**
 * Private events (reference §7) need user context with the matching OAuth 2.0 scope, and are
 * about the authenticated user only. OAuth 1.0a permissions, when present, decide instead of the
 * scopes (spec 000 "Authentication"); the OAuth 2.0 caller's scopes already reflect that.
 */
function checkPrivate(caller: Caller, type: ActivityEventType, filter: ActivityFilter): string | null {
  if (!type.scope) return null;
  const scope = type.scope;
  if (caller.kind === 'app') {
    throw new ProblemError(
      403,
      problems.unsupportedAuthentication(
        `Authenticating with OAuth 2.0 Application-Only is forbidden for ${type.name} subscriptions.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].`,
      ),
    );
  }
  const allowed = caller.kind === 'oauth2' ? caller.scopes.has(scope) : scopeAllowedAt(caller.accessLevel, scope);
  if (!allowed) throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `Missing required OAuth 2.0 scopes: [${scope}].`));
  if (filter.user_id !== caller.user.id) {
    throw new ProblemError(
      403,
      problems.aboutBlank(403, 'Forbidden', `${type.name} events are private: the \`filter.user_id\` must be the authenticated user [${caller.user.id}].`),
    );
  }
  return caller.user.id;
}

function filterKey(filter: ActivityFilter): string {
  const direction = filter.direction === undefined ? null : [...new Set(Array.isArray(filter.direction) ? filter.direction : [filter.direction])].sort();
  return JSON.stringify([filter.user_id ?? null, filter.keyword?.toLowerCase() ?? null, direction]);
}

async function checkWebhook(ctx: PlatformContext, app: AppRow, webhookId: string | undefined): Promise<void> {
  if (webhookId !== undefined && !(await webhookBelongsToApp(ctx.store.db, app.id, webhookId))) {
    throw invalidParameter('webhook_id', [webhookId], `WebhookIdInvalid: no webhook with id [${webhookId}] belongs to this app`);
  }
}

async function checkUserExists(ctx: PlatformContext, userId: string | undefined): Promise<void> {
  if (userId === undefined) return;
  const found = await ctx.store.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!found) throw new ProblemError(404, problems.resourceNotFound({ parameter: 'filter.user_id', value: userId, resource_id: userId, resource_type: 'user' }));
}

function duplicate(name: string, existing: string) {
  return invalidParameter('filter', [name], `DuplicateSubscription: subscription [${existing}] already delivers ${name} events for this filter`);
}

/** POST /2/activity/subscriptions. */
export async function createSubscription(ctx: PlatformContext, caller: Caller, body: NewSubscription) {
  const app = caller.app;
  const type = resolveEventType(ctx, body.event_type);
  const filter = checkFilter(ctx, type, body.filter ?? {});
  const owner = checkPrivate(caller, type, filter);
  await checkUserExists(ctx, filter.user_id);
  await checkWebhook(ctx, app, body.webhook_id);
  const now = ctx.clock.now().toISOString();
  const row: ActivitySubscriptionRow = {
    id: ctx.ids.next(),
    app_id: app.id,
    event_type: body.event_type,
    canonical_type: type.name,
    user_id: filter.user_id ?? null,
    keyword: filter.keyword ?? null,
    direction: filter.direction === undefined ? null : JSON.stringify(filter.direction),
    filter_key: filterKey(filter),
    tag: body.tag ?? null,
    webhook_id: body.webhook_id ?? null,
    owner_user_id: owner,
    created_at: now,
    updated_at: now,
  };
  try {
    await ctx.store.db.transaction().execute(async (tx) => {
      await lockAppSubscriptions(tx, ctx.store.dialect, app.id);
      const existing = await findDuplicateSubscription(tx, app.id, type.name, row.filter_key);
      if (existing) throw duplicate(type.name, existing.id);
      const cap = capOf(app);
      if ((await countSubscriptionsOfApp(tx, app.id)) >= cap) {
        throw invalidParameter('event_type', [body.event_type], `SubscriptionLimitExceeded: this app already holds the ${cap} subscriptions its tier allows`);
      }
      await insertSubscription(tx, row);
    });
  } catch (err) {
    // Two identical creates at once: the unique index decides.
    if (isUniqueViolation(err)) throw duplicate(type.name, '');
    throw err;
  }
  return { data: { subscription: subscriptionWire(row) } };
}

/** GET /2/activity/subscriptions: the app's subscriptions, oldest first. */
export async function listSubscriptions(ctx: PlatformContext, app: AppRow, query: { max_results?: unknown; pagination_token?: unknown }) {
  const max = parseMaxResults(query.max_results, LIST_RANGE);
  const after = decodePageToken(query.pagination_token);
  const [rows, total] = await Promise.all([listSubscriptionsOfApp(ctx.store.db, app.id, max + 1, after), countSubscriptionsOfApp(ctx.store.db, app.id)]);
  const items = rows.slice(0, max);
  const meta: { result_count: number; total_subscriptions: number; next_token?: string } = { result_count: items.length, total_subscriptions: total };
  if (rows.length > max && items.length > 0) meta.next_token = encodePageToken(items[items.length - 1].id);
  return { ...(items.length > 0 ? { data: items.map(subscriptionWire) } : {}), meta };
}

function unknownSubscription(id: string) {
  return invalidParameter('subscription_id', [id], `SubscriptionNotFound: no subscription with id [${id}] belongs to this app`);
}

/** PUT /2/activity/subscriptions/{id}: only the tag and the webhook change (reference §7). */
export async function updateSubscription(ctx: PlatformContext, app: AppRow, id: string, body: { tag?: string; webhook_id?: string }) {
  if (body.tag === undefined && body.webhook_id === undefined) {
    throw invalidParameter('tag', [], 'Give a `tag` or a `webhook_id` to change: only they can change');
  }
  if (!(await findSubscriptionOfApp(ctx.store.db, app.id, id))) throw unknownSubscription(id);
  await checkWebhook(ctx, app, body.webhook_id);
  const set: { tag?: string; webhook_id?: string; updated_at: string } = { updated_at: ctx.clock.now().toISOString() };
  if (body.tag !== undefined) set.tag = body.tag;
  if (body.webhook_id !== undefined) set.webhook_id = body.webhook_id;
  const row = await ctx.store.db.transaction().execute(async (tx) => {
    if (!(await updateSubscriptionRow(tx, id, set))) throw unknownSubscription(id);
    return (await findSubscriptionOfApp(tx, app.id, id))!;
  });
  return { data: { subscription: subscriptionWire(row), total_subscriptions: await countSubscriptionsOfApp(ctx.store.db, app.id) } };
}

/** DELETE /2/activity/subscriptions/{id}. */
export async function deleteSubscription(ctx: PlatformContext, app: AppRow, id: string) {
  const deleted = await deleteSubscriptionsOfApp(ctx.store.db, app.id, [id]);
  if (deleted.length === 0) throw unknownSubscription(id);
  return { data: { deleted: true }, meta: { total_subscriptions: await countSubscriptionsOfApp(ctx.store.db, app.id) } };
}

/** DELETE /2/activity/subscriptions?ids=: each id deleted or reported; the rest go on. */
export async function deleteSubscriptions(ctx: PlatformContext, app: AppRow, rawIds: string | undefined) {
  const ids = [...new Set(parseIdList('ids', rawIds, 100))];
  const deleted = new Set(await deleteSubscriptionsOfApp(ctx.store.db, app.id, ids));
  const errors = ids
    .filter((id) => !deleted.has(id))
    .map((id) => ({ subscription_id: id, reason: 'SubscriptionNotFound', message: `No subscription with id [${id}] belongs to this app` }));
  return {
    data: ids.filter((id) => deleted.has(id)).map((id) => ({ subscription_id: id, deleted: true })),
    ...(errors.length > 0 ? { errors } : {}),
    meta: { total_subscriptions: await countSubscriptionsOfApp(ctx.store.db, app.id) },
  };
}
