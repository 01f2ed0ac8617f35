import type { AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { selectFields, type ResourceDeclaration } from '../../http/fields.js';
import { invalidParameter } from '../../http/params.js';
import { appendEvent } from '../../events/log.js';
import { runCrc } from './crc.js';
import { refusedDestination, type DestinationPolicy } from './url-policy.js';
import type { Tier } from '../../store/schema.js';
import { isUniqueViolation } from '../../store/store.js';
import {
  deleteWebhookRow,
  findWebhookOfApp,
  insertWebhook,
  listWebhooksOfApp,
  lockAppWebhooks,
  recordCrcResult,
  type WebhookRow,
} from './store.js';

/** The webhook config record (shared/reference/platform.md §1): all four fields by default. */
export const webhookDeclaration: ResourceDeclaration<WebhookRow, unknown> = {
  resource: 'post',
  fieldsParam: 'webhook_config.fields',
  defaults: ['id', 'url', 'valid', 'created_at'],
  fields: {
    created_at: (w) => w.created_at,
    id: (w) => w.id,
    url: (w) => w.url,
    valid: (w) => w.valid === 1,
  },
};

const toWire = (w: WebhookRow, selected: ReadonlySet<string> = new Set()) => selectFields(webhookDeclaration, w, selected, undefined);

/**
 * URL rules of the public platform (shared/reference/platform.md §1): HTTPS, public, no port,
 * 1 to 200 characters. Development mode (the local demo) also lets plain http, explicit ports and
 * local addresses through, so a webhook can live on localhost. Where the host may be reached
 * (every address it resolves to) is src/platform/webhooks/url-policy.ts's rule, checked here and
 * again when the CRC connects.
 */
async function checkUrl(ctx: PlatformContext, url: string): Promise<URL> {
  const bad = (why: string) => invalidParameter('url', [url], `UrlValidationFailed: the \`url\` body field value [${url}] ${why}`);
  if (url.length < 1 || url.length > 200) throw bad('must be between 1 and 200 characters long');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw bad('is not a valid URL');
  }
  const development = ctx.config.development;
  if (parsed.protocol !== 'https:' && !(development && parsed.protocol === 'http:')) throw bad('must use https');
  if (parsed.port !== '' && !development) throw bad('must not name a port');
  if (parsed.username || parsed.password) throw bad('must not carry credentials');
  const refused = await refusedDestination(parsed.hostname, destinationPolicy(ctx));
  if (refused) throw bad(`must name a public host (${parsed.hostname} ${refused})`);
  return parsed;
}

/** Where webhook requests may go in this process's mode (src/platform/webhooks/url-policy.ts). */
export const destinationPolicy = (ctx: PlatformContext): DestinationPolicy => ({ development: ctx.config.development });

/** The same webhook URL however it is spelt (host case, default port, empty path). */
const sameUrl = (stored: string, wanted: URL): boolean => URL.canParse(stored) && new URL(stored).href === wanted.href;

function duplicateUrl(url: string) {
  return invalidParameter('url', [url], `DuplicateUrlFailed: a webhook with url [${url}] already exists for this app`);
}

/**
 * Webhook configs one app may hold, by tier. The reference names WebhookLimitExceeded without the
 * numbers; self-serve apps get a few, enterprise more (Plaza's choice, in this one place).
 */
export const WEBHOOK_LIMITS: Record<Tier, number> = { free: 1, basic: 2, 'pay-per-use': 2, pro: 30, enterprise: 100 };

export const webhookLimit = (app: AppRow): number => WEBHOOK_LIMITS[app.tier] ?? 1;

function webhookLimitExceeded(app: AppRow, url: string) {
  return invalidParameter('url', [url], `WebhookLimitExceeded: this app already has the ${webhookLimit(app)} webhooks its ${app.tier} tier allows`);
}

export async function createWebhook(ctx: PlatformContext, app: AppRow, url: string) {
  const parsed = await checkUrl(ctx, url);
  // Refused early (before any CRC), and checked again below where it cannot race another create.
  const existing = await listWebhooksOfApp(ctx.store.db, app.id);
  if (existing.some((w) => sameUrl(w.url, parsed))) throw duplicateUrl(url);
  if (existing.length >= webhookLimit(app)) throw webhookLimitExceeded(app, url);
  // The CRC runs before anything is stored: a webhook that fails it is not created.
  const crc = await runCrc(url, app.consumer_secret, ctx.config.crcTimeoutMs, destinationPolicy(ctx));
  if (!crc.valid) {
    throw invalidParameter('url', [url], `CrcValidationFailed: the webhook at [${url}] did not answer the CRC challenge correctly (${crc.reason})`);
  }
  const now = ctx.clock.now().toISOString();
  const row: WebhookRow = { id: ctx.ids.next(), app_id: app.id, url, valid: 1, created_at: now, last_crc_at: now, last_crc_attempt_at: now, failing_since: null, invalid_reason: null };
  await ctx.store.db.transaction().execute(async (tx) => {
    await lockAppWebhooks(tx, ctx.store.dialect, app.id);
    const existing = await listWebhooksOfApp(tx, app.id);
    if (existing.some((w) => sameUrl(w.url, parsed))) throw duplicateUrl(url);
    if (existing.length >= webhookLimit(app)) throw webhookLimitExceeded(app, url);
    try {
      await insertWebhook(tx, row);
    } catch (err) {
      // The unique index on (app, url) is the last word when two creates race.
      if (isUniqueViolation(err)) throw duplicateUrl(url);
      throw err;
    }
    await appendEvent(ctx, tx, { type: 'webhook.create', subject: row.id, payload: toWire(row) });
  });
  return { data: toWire(row) };
}

export async function listWebhooks(ctx: PlatformContext, app: AppRow, selected: ReadonlySet<string>) {
  const rows = await listWebhooksOfApp(ctx.store.db, app.id);
  return { data: rows.map((w) => toWire(w, selected)), meta: { result_count: rows.length } };
}

function unknownWebhook(id: string) {
  return invalidParameter('webhook_id', [id], `WebhookIdInvalid: no webhook with id [${id}] belongs to this app`);
}

/** The caller's app's webhook; another app's looks exactly like one that does not exist. */
async function webhookOf(ctx: PlatformContext, app: AppRow, id: string): Promise<WebhookRow> {
  const row = await findWebhookOfApp(ctx.store.db, app.id, id);
  if (!row) throw unknownWebhook(id);
  return row;
}

/** PUT /2/webhooks/{webhook_id} (spec 000 "Validate webhook"): a real CRC, its result recorded. */
export async function validateWebhook(ctx: PlatformContext, app: AppRow, id: string) {
  const row = await webhookOf(ctx, app, id);
  const crc = await runCrc(row.url, app.consumer_secret, ctx.config.crcTimeoutMs, destinationPolicy(ctx));
  if (!crc.valid) ctx.log.info({ webhook_id: id, reason: crc.reason }, 'webhook CRC failed');
  await ctx.store.db.transaction().execute(async (tx) => {
    // Deleted while the CRC ran: nothing to record, and no event about a webhook that is gone.
    if (!(await recordCrcResult(tx, id, crc.valid, ctx.clock.now().toISOString(), crc.reason))) throw unknownWebhook(id);
    await appendEvent(ctx, tx, { type: 'webhook.crc', subject: id, payload: { webhook_id: id, valid: crc.valid } });
  });
  return { data: { attempted: true, valid: crc.valid } };
}

export async function deleteWebhook(ctx: PlatformContext, app: AppRow, id: string) {
  await webhookOf(ctx, app, id);
  await ctx.store.db.transaction().execute(async (tx) => {
    // Two deletes at once: only the one that removed the row succeeds (and logs the event).
    if (!(await deleteWebhookRow(tx, id))) throw unknownWebhook(id);
    await appendEvent(ctx, tx, { type: 'webhook.delete', subject: id, payload: { id } });
  });
  return { data: { deleted: true } };
}
