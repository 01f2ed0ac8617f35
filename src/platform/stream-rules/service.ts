import type { AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { decodePageToken, page, parseMaxResults } from '../../http/pagination.js';
import { ID_PATTERN, invalidValue, parseEnumList, parseIdList } from '../../http/params.js';
import { ProblemError, type Problem, problems } from '../../http/problems.js';
import { parseQuery, QueryError } from '../../query/parse.js';
import { tierWayOut } from '../../seed/way-out.js';
import { REGISTRATION_URL } from '../graph/tiers.js';
import { announceRuleChange } from './book.js';
import {
  bumpRuleVersion,
  countRules,
  deleteRules,
  insertRules,
  listRules,
  lockRuleSet,
  ruleCountsOf,
  ruleValueHash,
  rulesByValueHash,
  type StreamRuleRow,
} from './store.js';
import { ruleToWire, type WireRule } from './wire.js';

/**
 * The filtered stream's rules (issue #12 "Rules", shared/reference/platform.md §6 "Limits"): they
 * belong to the app (the public platform's project). Self-serve apps hold 1,000 rules of up to
 * 1,024 characters; enterprise apps 25,000 and more (config.enterpriseStreamRules) of up to 2,048.
 */
const SELF_SERVE = { rules: 1_000, length: 1_024 };
const ENTERPRISE_LENGTH = 2_048;

export interface RuleLimits {
  rules: number;
  length: number;
}

/** The caller's tier decides, as it does search's query length (src/platform/search/service.ts). */
export function ruleLimits(ctx: PlatformContext, app: AppRow): RuleLimits {
  return app.tier === 'enterprise' ? { rules: ctx.config.enterpriseStreamRules, length: ENTERPRISE_LENGTH } : SELF_SERVE;
}

/** The event a change of an app's rule set appends, so every process's rule book hears of it. */
export const RULES_CHANGED_EVENT = 'stream.rules.change';

export const LIST_RANGE = { min: 1, max: 1000, default: 1000 } as const;
/** GET ?ids= takes up to 1,000 rule ids. */
const MAX_LOOKUP_IDS = 1000;


/** An enterprise-only operation refuses self-serve apps with client-forbidden (403). */
export function requireEnterprise(ctx: PlatformContext, app: AppRow, what: string): void {
  if (app.tier === 'enterprise') return;
  const problem = problems.clientForbidden({
    reason: 'client-not-enrolled',
    registration_url: REGISTRATION_URL,
    detail: `${what} are not available to apps on the ${app.tier} tier. Use an app on the enterprise tier.${tierWayOut(ctx, ['enterprise'])}`,
  });
  throw new ProblemError(403, { ...problem, client_id: app.id, required_enrollment: 'Appropriate Level of API Access' });
}

export interface RulesPage {
  data?: WireRule[];
  meta: { sent: string; result_count: number; next_token?: string };
}

/** GET /2/posts/search/stream/rules: the app's rules in id order, or those of `ids`; paged. */
export async function listStreamRules(ctx: PlatformContext, app: AppRow, query: { ids?: string; max_results?: string | number; pagination_token?: string }): Promise<RulesPage> {
  const ids = query.ids === undefined ? undefined : parseIdList('ids', query.ids, MAX_LOOKUP_IDS);
  const maxResults = parseMaxResults(query.max_results, LIST_RANGE);
  const after = decodePageToken(query.pagination_token);
  if (after !== undefined && !ID_PATTERN.test(after)) throw invalidValue('pagination_token', query.pagination_token, `The \`pagination_token\` query parameter value [${query.pagination_token}] is not a valid token`);
  const rows = await listRules(ctx.store.db, app.id, { ids, after, limit: maxResults + 1 });
  const { items, meta } = page(rows, maxResults, (r) => r.id);
  const out: RulesPage = { meta: { sent: ctx.clock.now().toISOString(), result_count: meta.result_count } };
  if (meta.next_token) out.meta.next_token = meta.next_token;
  if (items.length > 0) out.data = items.map(ruleToWire);
  return out;
}

export interface ChangeBody {
  add?: Array<{ value: string; tag?: string }>;
  delete?: { ids?: string[]; values?: string[] };
}

export interface ChangeResult {
  data?: WireRule[];
  errors?: Problem[];
  meta: { sent: string; summary: { created: number; not_created: number; valid: number; invalid: number } | { deleted: number; not_deleted: number } };
}

function parseFlag(name: string, raw: unknown): boolean {
  if (raw === undefined || raw === '') return false;
  const text = String(raw);
  if (text === 'true' || text === 'false') return text === 'true';
  throw invalidValue(name, text, `The \`${name}\` query parameter value [${text}] is not one of [true, false]`);
}

/**
 * POST /2/posts/search/stream/rules: exactly one of `add`, `delete` or ?delete_all=true;
 * ?dry_run=true answers the same and changes nothing.
 */
export async function changeStreamRules(ctx: PlatformContext, app: AppRow, query: { dry_run?: unknown; delete_all?: unknown }, body: ChangeBody | undefined): Promise<ChangeResult> {
  const dryRun = parseFlag('dry_run', query.dry_run);
  const deleteAll = parseFlag('delete_all', query.delete_all);
  const asked = [body?.add !== undefined && 'add', body?.delete !== undefined && 'delete', deleteAll && 'delete_all'].filter((x): x is string => typeof x === 'string');
  if (asked.length !== 1) {
    const message =
      asked.length === 0
        ? 'The request needs one of `add` or `delete` in its body, or the `delete_all` query parameter set to true'
        : `Send one of \`add\`, \`delete\` and \`delete_all\`, not ${asked.map((a) => `\`${a}\``).join(' and ')}`;
    throw new ProblemError(400, problems.invalidRequest([{ message, parameters: Object.fromEntries(asked.map((a) => [a, []])) }]));
  }
  if (body?.add !== undefined) return addRules(ctx, app, body.add, dryRun);
  if (body?.delete !== undefined) return deleteRulesOf(ctx, app, body.delete, dryRun);
  return deleteAllRules(ctx, app, dryRun);
}

/** Why the rule is refused (its length on the app's tier, then the grammar), or undefined. */
function ruleProblem(value: string, limits: RuleLimits, tier: string): string | undefined {
  const length = [...value].length;
  if (length > limits.length) return `Rule is too long: ${length} characters; rules may be at most ${limits.length} characters for apps on the ${tier} tier`;
  try {
    parseQuery(value);
    return undefined;
  } catch (err) {
    if (err instanceof QueryError) return `Rule is invalid: ${err.message}`;
    throw err;
  }
}

async function addRules(ctx: PlatformContext, app: AppRow, add: NonNullable<ChangeBody['add']>, dryRun: boolean): Promise<ChangeResult> {
  if (add.length === 0) throw invalidValue('add', '[]', 'The `add` list must hold at least one rule');
  const limits = ruleLimits(ctx, app);
  const now = ctx.clock.now().toISOString();
  const hashes = add.map((r) => ruleValueHash(r.value));

  const run = async (tx: typeof ctx.store.db): Promise<ChangeResult> => {
    if (!dryRun) await lockRuleSet(tx, app.id);
    const existing = await rulesByValueHash(tx, app.id, hashes);
    const errors: Problem[] = [];
    const created: StreamRuleRow[] = [];
    const seen = new Map<string, StreamRuleRow>();
    let invalid = 0;
    add.forEach((rule, i) => {
      const why = ruleProblem(rule.value, limits, app.tier);
      if (why) {
        invalid++;
        errors.push({ ...problems.invalidRules(why), value: rule.value });
        return;
      }
      const twin = existing.get(hashes[i]) ?? seen.get(hashes[i]);
      if (twin) {
        errors.push(problems.duplicateRules({ id: twin.id, value: rule.value }));
        return;
      }
      const row: StreamRuleRow = { id: ctx.ids.next(), app_id: app.id, value: rule.value, value_hash: hashes[i], tag: rule.tag ?? null, created_at: now };
      seen.set(hashes[i], row);
      created.push(row);
    });
    const summary = (n: number) => ({ created: n, not_created: add.length - n, valid: add.length - invalid, invalid });
    if (created.length > 0) {
      const count = await countRules(tx, app.id);
      if (count + created.length > limits.rules) {
        // Past the cap the whole set is refused: nothing of this request is added.
        const detail = `Adding ${created.length} rules to the ${count} this app has would exceed its maximum of ${limits.rules} rules`;
        return { errors: [...errors, problems.ruleCap(detail)], meta: { sent: now, summary: summary(0) } };
      }
      if (!dryRun) {
        await insertRules(tx, created);
        await recordChange(ctx, tx, app.id, now, { created: created.map((r) => r.id), deleted: [] });
      }
    }
    const result: ChangeResult = { meta: { sent: now, summary: summary(created.length) } };
    if (created.length > 0) result.data = created.map(ruleToWire);
    if (errors.length > 0) result.errors = errors;
    return result;
  };

  const result = dryRun ? await run(ctx.store.db) : await ctx.store.db.transaction().execute(run);
  if (!dryRun && result.data) announceRuleChange(ctx, app.id);
  return result;
}

async function deleteRulesOf(ctx: PlatformContext, app: AppRow, del: NonNullable<ChangeBody['delete']>, dryRun: boolean): Promise<ChangeResult> {
  const byIds = del.ids !== undefined;
  if (byIds === (del.values !== undefined)) {
    throw new ProblemError(400, problems.invalidRequest([{ message: '`delete` needs exactly one of `ids` and `values`', parameters: { delete: [] } }]));
  }
  // The same id or value twice is one request to delete it.
  const asked = [...new Set(byIds ? del.ids! : del.values!)];
  const param = byIds ? 'ids' : 'values';
  if (asked.length === 0) throw invalidValue(param, '[]', `The \`delete.${param}\` list must hold at least one ${byIds ? 'rule id' : 'rule value'}`);
  const now = ctx.clock.now().toISOString();

  const run = async (tx: typeof ctx.store.db): Promise<ChangeResult> => {
    if (!dryRun) await lockRuleSet(tx, app.id);
    // Each asked item -> the id of the app's rule it names, if any.
    const found = new Map<string, string>();
    if (byIds) {
      for (let i = 0; i < asked.length; i += 500) for (const r of await listRules(tx, app.id, { ids: asked.slice(i, i + 500) })) found.set(r.id, r.id);
    } else {
      const rows = await rulesByValueHash(tx, app.id, asked.map(ruleValueHash));
      for (const v of asked) {
        const r = rows.get(ruleValueHash(v));
        if (r) found.set(v, r.id);
      }
    }
    const ids = [...new Set(found.values())];
    if (!dryRun && ids.length > 0) {
      await deleteRules(tx, app.id, ids);
      await recordChange(ctx, tx, app.id, now, { created: [], deleted: ids });
    }
    const missing = asked.filter((a) => !found.has(a));
    const result: ChangeResult = { meta: { sent: now, summary: { deleted: ids.length, not_deleted: missing.length } } };
    if (missing.length > 0) {
      result.errors = missing.map((m) =>
        problems.invalidRequest([{ message: `Rule does not exist: no rule of this app has the ${byIds ? 'id' : 'value'} [${m}]`, parameters: { [param]: [m] } }]),
      );
    }
    return result;
  };

  const result = dryRun ? await run(ctx.store.db) : await ctx.store.db.transaction().execute(run);
  if (!dryRun && (result.meta.summary as { deleted: number }).deleted > 0) announceRuleChange(ctx, app.id);
  return result;
}

async function deleteAllRules(ctx: PlatformContext, app: AppRow, dryRun: boolean): Promise<ChangeResult> {
  const now = ctx.clock.now().toISOString();
  const run = async (tx: typeof ctx.store.db): Promise<number> => {
    if (!dryRun) await lockRuleSet(tx, app.id);
    const ids = (await listRules(tx, app.id, {})).map((r) => r.id);
    if (!dryRun && ids.length > 0) {
      await deleteRules(tx, app.id, ids);
      await recordChange(ctx, tx, app.id, now, { created: [], deleted: ids });
    }
    return ids.length;
  };
  const deleted = dryRun ? await run(ctx.store.db) : await ctx.store.db.transaction().execute(run);
  if (!dryRun && deleted > 0) announceRuleChange(ctx, app.id);
  return { meta: { sent: now, summary: { deleted, not_deleted: 0 } } };
}

/**
 * In the changing transaction: the rule set's new version, and the event other processes follow.
 * The event says how many rules came and went, not which (a delete_all of 25,000 rules would make
 * one very large event); the rules are read from the store.
 */
async function recordChange(ctx: PlatformContext, tx: typeof ctx.store.db, appId: string, now: string, change: { created: string[]; deleted: string[] }): Promise<void> {
  const version = await bumpRuleVersion(tx, appId, now);
  await appendEvent(ctx, tx, { type: RULES_CHANGED_EVENT, subject: appId, payload: { app_id: appId, version, created: change.created.length, deleted: change.deleted.length } });
}

const COUNT_FIELDS = ['all_project_client_apps', 'cap_per_client_app', 'cap_per_project', 'client_app_rules_count', 'project_rules_count'] as const;

/**
 * GET /2/posts/search/stream/rules/counts: the app's rule count against its cap. In Plaza the
 * project is the app, so the project's count and cap are the app's; all_project_client_apps
 * (when asked for in rules_count.fields) lists the app alone.
 */
export async function ruleCounts(ctx: PlatformContext, app: AppRow, query: { 'rules_count.fields'?: string }) {
  const fields = parseEnumList('rules_count.fields', query['rules_count.fields'], COUNT_FIELDS);
  const count = (await ruleCountsOf(ctx.store.db, [app.id])).get(app.id) ?? 0;
  const cap = String(ruleLimits(ctx, app).rules);
  const data: Record<string, unknown> = {
    cap_per_client_app: cap,
    cap_per_project: cap,
    project_rules_count: String(count),
    client_app_rules_count: { client_app_id: app.id, rule_count: count },
  };
  if (fields.has('all_project_client_apps')) data.all_project_client_apps = [{ client_app_id: app.id, rule_count: count }];
  return { data };
}

/**
 * GET /2/enterprise_stream/rules (Aug 6, 2025; enterprise): the rules configured on each stream
 * instance. An app has one filtered-stream instance in Plaza, named by the app's id.
 */
export async function enterpriseStreamRules(ctx: PlatformContext, app: AppRow, query: { ids?: string; max_results?: string | number; pagination_token?: string }) {
  requireEnterprise(ctx, app, 'The enterprise stream rules');
  const result = await listStreamRules(ctx, app, query);
  return { ...result, data: result.data?.map((r) => ({ ...r, instance_id: app.id })) };
}
