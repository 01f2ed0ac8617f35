import { BlockList, isIP } from 'node:net';
import type { AppRow } from '../../auth/store.js';
import type { AppContext } from '../../context.js';
import { selectFields, type ResourceDeclaration } from '../../http/fields.js';
import { invalidParameter } from '../../http/params.js';
import { appendEvent } from '../../events/log.js';
import { runCrc } from './crc.js';
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

/** Addresses that are not public: loopback, private, link-local, carrier-grade NAT, unspecified. */
const NON_PUBLIC = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16]] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['::ffff:0:0', 96]] as const) {
  NON_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

function isPublicHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return false;
  const family = isIP(host);
  if (family === 0) return true;
  return !NON_PUBLIC.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * URL rules of the public platform (shared/reference/platform.md §1): HTTPS, public, no port,
 * 1 to 200 characters. Development mode (the local demo) also lets plain http, explicit ports and
 * local addresses through, so a webhook can live on localhost. Only literal addresses and
 * localhost names are checked for being public; names are not resolved.
 */
function checkUrl(ctx: AppContext, url: string): URL {
  const bad = (why: string) => invalidParameter(ctx.problems, 'url', [url], `UrlValidationFailed: the \`url\` body field value [${url}] ${why}`);
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
  if (!development && !isPublicHost(parsed.hostname)) throw bad('must name a public host');
  return parsed;
}

/** The same webhook URL however it is spelt (host case, default port, empty path). */
const sameUrl = (stored: string, wanted: URL): boolean => URL.canParse(stored) && new URL(stored).href === wanted.href;

function duplicateUrl(ctx: AppContext, url: string) {
  return invalidParameter(ctx.problems, 'url', [url], `DuplicateUrlFailed: a webhook with url [${url}] already exists for this app`);
}

export async function createWebhook(ctx: AppContext, app: AppRow, url: string) {
  const parsed = checkUrl(ctx, url);
  // Refused early (before any CRC), and checked again below where it cannot race another create.
  if ((await listWebhooksOfApp(ctx.store.db, app.id)).some((w) => sameUrl(w.url, parsed))) throw duplicateUrl(ctx, url);
  // The CRC runs before anything is stored: a webhook that fails it is not created.
  const crc = await runCrc(url, app.consumer_secret, ctx.config.crcTimeoutMs);
  if (!crc.valid) {
    throw invalidParameter(ctx.problems, 'url', [url], `CrcValidationFailed: the webhook at [${url}] did not answer the CRC challenge correctly (${crc.reason})`);
  }
  const now = ctx.clock.now().toISOString();
  const row: WebhookRow = { id: ctx.ids.next(), app_id: app.id, url, valid: 1, created_at: now, last_crc_at: now };
  await ctx.store.db.transaction().execute(async (tx) => {
    await lockAppWebhooks(tx, ctx.store.dialect, app.id);
    if ((await listWebhooksOfApp(tx, app.id)).some((w) => sameUrl(w.url, parsed))) throw duplicateUrl(ctx, url);
    await insertWebhook(tx, row);
    await appendEvent(ctx, tx, { type: 'webhook.create', subject: row.id, payload: toWire(row) });
  });
  return { data: toWire(row) };
}

export async function listWebhooks(ctx: AppContext, app: AppRow, selected: ReadonlySet<string>) {
  const rows = await listWebhooksOfApp(ctx.store.db, app.id);
  return { data: rows.map((w) => toWire(w, selected)), meta: { result_count: rows.length } };
}

function unknownWebhook(ctx: AppContext, id: string) {
  return invalidParameter(ctx.problems, 'webhook_id', [id], `WebhookIdInvalid: no webhook with id [${id}] belongs to this app`);
}

/** The caller's app's webhook; another app's looks exactly like one that does not exist. */
async function webhookOf(ctx: AppContext, app: AppRow, id: string): Promise<WebhookRow> {
  const row = await findWebhookOfApp(ctx.store.db, app.id, id);
  if (!row) throw unknownWebhook(ctx, id);
  return row;
}

/** PUT /2/webhooks/{webhook_id} (spec 000 "Validate webhook"): a real CRC, its result recorded. */
export async function validateWebhook(ctx: AppContext, app: AppRow, id: string) {
  const row = await webhookOf(ctx, app, id);
  const crc = await runCrc(row.url, app.consumer_secret, ctx.config.crcTimeoutMs);
  if (!crc.valid) ctx.log.info({ webhook_id: id, reason: crc.reason }, 'webhook CRC failed');
  await ctx.store.db.transaction().execute(async (tx) => {
    // Deleted while the CRC ran: nothing to record, and no event about a webhook that is gone.
    if (!(await recordCrcResult(tx, id, crc.valid, ctx.clock.now().toISOString()))) throw unknownWebhook(ctx, id);
    await appendEvent(ctx, tx, { type: 'webhook.crc', subject: id, payload: { webhook_id: id, valid: crc.valid } });
  });
  return { data: { attempted: true, valid: crc.valid } };
}

export async function deleteWebhook(ctx: AppContext, app: AppRow, id: string) {
  await webhookOf(ctx, app, id);
  await ctx.store.db.transaction().execute(async (tx) => {
    // Two deletes at once: only the one that removed the row succeeds (and logs the event).
    if (!(await deleteWebhookRow(tx, id))) throw unknownWebhook(ctx, id);
    await appendEvent(ctx, tx, { type: 'webhook.delete', subject: id, payload: { id } });
  });
  return { data: { deleted: true } };
}
