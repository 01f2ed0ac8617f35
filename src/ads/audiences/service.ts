import type { Static } from '@sinclair/typebox';
import type { DbOrTx } from '../../store/store.js';
import { hasFeature } from '../accounts/service.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, pageArray, runList, type ListRequest, type Page } from '../http/list.js';
import { newAdsId } from '../ids.js';
import { AUDIENCE_TYPES } from '../targeting/vocabulary.js';
import { applyUserBatch, matchedUserCounts, matchedUserIds, parseUserBatch } from './batch.js';
import { processingUntil, reasonsNotTargetable } from './status.js';
import {
  audiencesVisibleTo,
  findPermission,
  findVisibleAudience,
  insertAudience,
  insertPermission,
  lineItemsTargeting,
  liveAudienceNamed,
  livePermissionFor,
  permissionsOf,
  updateAudienceRow,
  updatePermissionRow,
  type AudienceRow,
  type PermissionRow,
  type VisibleAudience,
} from './store.js';
import { audienceWire, type TargetedCampaignSchema } from './wire.js';

/**
 * Custom audiences (shared/reference/ads.md §5): CRM lists of hashed identifiers, matched
 * against Plaza's users; shared with other accounts by tailored audience permissions (spec 001
 * "Tailored audience permissions"). The owner and READ_WRITE grantees may change an audience's
 * users, name and description; only the owner deletes it or manages its permissions.
 */
export const AUDIENCE_SORTING = entitySorting('a', { name: { column: 'a.name' } });
export const PERMISSION_SORTING = entitySorting(undefined, { granted_account_id: { column: 'granted_account_id' }, permission_level: { column: 'permission_level' } });
export const SHARE_OUTSIDE_BUSINESS = 'SHARE_AUDIENCE_OUTSIDE_BUSINESS';

export const audienceNotFound = (id: string, account: AccountRow) =>
  new AdsError(404, [{ code: 'TAILORED_AUDIENCE_NOT_FOUND', message: `Custom audience ${id} was not found for Account ${account.id}`, parameter: 'custom_audience_id' }]);

const notOwner = (audience: AudienceRow, account: AccountRow) =>
  AdsError.forbidden('ACTION_NOT_ALLOWED', `Account ${account.id} does not own custom audience ${audience.id} (is_owner is false); only account ${audience.account_id} may do this`);

export async function audiencesWire(db: DbOrTx, rows: VisibleAudience[], viewer: AccountRow, now: Date) {
  const sizes = await matchedUserCounts(db, rows.map((r) => r.id), now);
  return rows.map((r) => audienceWire(r, sizes.get(r.id) ?? 0, viewer, now));
}

export function listAudiences(db: DbOrTx, account: AccountRow, p: ListRequest & { custom_audience_ids?: string[]; q?: string; with_deleted: boolean }): Promise<Page<VisibleAudience>> {
  return runList(db, audiencesVisibleTo(db, account.id, { ids: p.custom_audience_ids, q: p.q, withDeleted: p.with_deleted }), AUDIENCE_SORTING, p);
}

export async function getAudience(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false): Promise<VisibleAudience> {
  const row = id === undefined ? undefined : await findVisibleAudience(db, account.id, id);
  if (!row || (row.deleted === 1 && !withDeleted)) throw audienceNotFound(id ?? '', account);
  return row;
}

async function writableAudience(db: DbOrTx, account: AccountRow, id: string | undefined): Promise<VisibleAudience> {
  const audience = await getAudience(db, account, id);
  if (audience.account_id !== account.id && audience.granted_level !== 'READ_WRITE') {
    throw AdsError.forbidden('ACTION_NOT_ALLOWED', `Account ${account.id} may only read custom audience ${audience.id} (permission_level READ_ONLY)`);
  }
  return audience;
}

async function checkUniqueName(db: DbOrTx, account: AccountRow, name: string, except?: string): Promise<void> {
  const same = await liveAudienceNamed(db, account.id, name);
  if (same && same.id !== except) throw AdsError.invalidParameter('name', `Account ${account.id} already has a custom audience named ${JSON.stringify(name)}; names must be unique`, 'DUPLICATE_NAME');
}

export async function createAudience(actor: AdsActor, db: DbOrTx, account: AccountRow, p: { name: string; description?: string }): Promise<VisibleAudience> {
  await checkUniqueName(db, account, p.name);
  const now = actor.ctx.clock.now().toISOString();
  const row: AudienceRow = {
    id: newAdsId(actor.ctx),
    account_id: account.id,
    name: p.name,
    description: p.description ?? null,
    audience_type: 'CRM',
    processing_until: null,
    created_at: now,
    updated_at: now,
    deleted: 0,
  };
  await insertAudience(db, row);
  return { ...row, granted_level: null };
}

export async function updateAudience(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined, p: { name?: string; description?: string | null }): Promise<VisibleAudience> {
  const before = await writableAudience(db, account, id);
  const changes: Partial<AudienceRow> = {};
  if (p.name !== undefined && p.name !== before.name) {
    await checkUniqueName(db, (await ownerOf(db, before)) ?? account, p.name, before.id);
    changes.name = p.name;
  }
  if (p.description !== undefined) changes.description = p.description;
  if (Object.keys(changes).length === 0) return before;
  const after = await updateAudienceRow(db, before.id, { ...changes, updated_at: actor.ctx.clock.now().toISOString() });
  return { ...after, granted_level: before.granted_level };
}

async function ownerOf(db: DbOrTx, audience: AudienceRow): Promise<AccountRow | undefined> {
  return db.selectFrom('ads_accounts').selectAll().where('id', '=', audience.account_id).executeTakeFirst();
}

/** DELETE: soft, by the owner; a second DELETE is 404. */
export async function deleteAudience(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<VisibleAudience> {
  const before = await getAudience(db, account, id);
  if (before.account_id !== account.id) throw notOwner(before, account);
  const after = await updateAudienceRow(db, before.id, { deleted: 1, updated_at: actor.ctx.clock.now().toISOString() });
  return { ...after, granted_level: null };
}

/** POST custom_audiences/:id/users: the batch, applied whole; the audience then PROCESSING for a while. */
export async function uploadAudienceUsers(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined, body: unknown, contentType: string) {
  const audience = await writableAudience(db, account, id);
  const now = actor.ctx.clock.now();
  const batch = parseUserBatch(body, contentType, { expiresAtRequired: false, acceptsEffectiveAt: true }, now);
  const applied = await applyUserBatch(actor.ctx, db, audience.id, batch);
  await updateAudienceRow(db, audience.id, { processing_until: processingUntil(now), updated_at: now.toISOString() });
  return [{ success_count: applied, total_count: batch.records }];
}

/**
 * Whether `accountId` may target audience `audienceId` now: it owns it or holds a live permission,
 * and the audience is targetable (matched enough users, not PROCESSING).
 */
export async function isTargetableAudience(db: DbOrTx, accountId: string, audienceId: string, now: Date): Promise<boolean> {
  const audience = await findVisibleAudience(db, accountId, audienceId);
  if (!audience || audience.deleted === 1) return false;
  const size = (await matchedUserCounts(db, [audience.id], now)).get(audience.id) ?? 0;
  return reasonsNotTargetable(audience, size, now).length === 0;
}

/** The users an audience matches now, for the audience estimate. */
export async function audienceUsers(db: DbOrTx, accountId: string, audienceId: string, now: Date): Promise<string[]> {
  const audience = await findVisibleAudience(db, accountId, audienceId);
  if (!audience || audience.deleted === 1) return [];
  return [...(await matchedUserIds(db, [audience.id], now))];
}

/**
 * GET custom_audiences/:id/targeted (spec 001 "Targeted audiences"): the account's campaigns whose
 * line items target the audience, each with those line items. A line item is servable when it and
 * its campaign are ACTIVE and its end_time has not passed; with_active=true (the default) lists
 * only servable ones.
 */
export async function targetedBy(
  db: DbOrTx,
  account: AccountRow,
  id: string | undefined,
  p: { with_active: boolean; count: number; cursor?: string },
  now: Date,
): Promise<{ next_cursor: string | null; data: Array<Static<typeof TargetedCampaignSchema>> }> {
  const audience = await getAudience(db, account, id);
  const rows = await lineItemsTargeting(db, account.id, audience.id, AUDIENCE_TYPES);
  const campaigns = new Map<string, { id: string; campaign_id: string; campaign_name: string; line_items: Array<{ id: string; name: string | null; servable: boolean }> }>();
  for (const r of rows) {
    const servable = r.campaign_status === 'ACTIVE' && r.line_item_status === 'ACTIVE' && (r.end_time === null || r.end_time > now.toISOString());
    if (p.with_active && !servable) continue;
    let c = campaigns.get(r.campaign_id);
    if (!c) campaigns.set(r.campaign_id, (c = { id: r.campaign_id, campaign_id: r.campaign_id, campaign_name: r.campaign_name, line_items: [] }));
    c.line_items.push({ id: r.line_item_id, name: r.line_item_name, servable });
  }
  const page = pageArray([...campaigns.values()], p);
  return { next_cursor: page.next_cursor, data: page.rows.map(({ campaign_id, campaign_name, line_items }) => ({ campaign_id, campaign_name, line_items })) };
}

// Tailored audience permissions (spec 001, version 5 in the path).

export interface PermissionListParams extends ListRequest {
  granted_account_ids?: string[];
  tailored_audience_permission_ids?: string[];
}

/** The owner sees every permission of its audience; an account it is shared with sees its own. */
export async function listPermissions(db: DbOrTx, account: AccountRow, audienceId: string | undefined, p: PermissionListParams) {
  const audience = await getAudience(db, account, audienceId);
  const granted = audience.account_id === account.id ? p.granted_account_ids : (p.granted_account_ids ?? [account.id]).filter((g) => g === account.id);
  return runList(db, permissionsOf(db, audience.id, { ids: p.tailored_audience_permission_ids, grantedAccountIds: granted }), PERMISSION_SORTING, p);
}

/**
 * POST permissions: only the owning account; the granted account must exist, be another account,
 * and belong to the owner's business unless the owner has SHARE_AUDIENCE_OUTSIDE_BUSINESS. A
 * second POST for the same granted account changes its permission_level.
 */
export async function grantPermission(
  actor: AdsActor,
  db: DbOrTx,
  account: AccountRow,
  audienceId: string | undefined,
  p: { granted_account_id: string; permission_level: string },
): Promise<PermissionRow> {
  const audience = await getAudience(db, account, audienceId);
  if (audience.account_id !== account.id) throw notOwner(audience, account);
  const granted = await db.selectFrom('ads_accounts').selectAll().where('id', '=', p.granted_account_id).where('environment', '=', account.environment).where('deleted', '=', 0).executeTakeFirst();
  if (!granted) throw AdsError.invalidParameter('granted_account_id', `Account ${p.granted_account_id} was not found`);
  if (granted.id === account.id) throw AdsError.invalidParameter('granted_account_id', 'An audience cannot be shared with the account that owns it');
  const sameBusiness = account.business_id !== null && account.business_id === granted.business_id;
  if (!sameBusiness && !(await hasFeature(db, account, SHARE_OUTSIDE_BUSINESS))) {
    throw AdsError.invalidParameter(
      'granted_account_id',
      `Account ${granted.id} is not in the business of account ${account.id}; sharing outside the business needs the account feature ${SHARE_OUTSIDE_BUSINESS}`,
      'ACTION_NOT_ALLOWED',
    );
  }
  const now = actor.ctx.clock.now().toISOString();
  const existing = await livePermissionFor(db, audience.id, granted.id);
  if (existing) {
    if (existing.permission_level === p.permission_level) return existing;
    return updatePermissionRow(db, existing.id, { permission_level: p.permission_level, updated_at: now });
  }
  const row: PermissionRow = {
    id: newAdsId(actor.ctx),
    audience_id: audience.id,
    granted_account_id: granted.id,
    permission_level: p.permission_level,
    created_at: now,
    updated_at: now,
    deleted: 0,
  };
  await insertPermission(db, row);
  return row;
}

/**
 * DELETE a permission (owner only): deleted = true. The granted account can no longer target the
 * audience in new line items; criteria it already has stay, so its running campaigns keep serving.
 */
export async function revokePermission(actor: AdsActor, db: DbOrTx, account: AccountRow, audienceId: string | undefined, id: string | undefined): Promise<PermissionRow> {
  const audience = await getAudience(db, account, audienceId);
  if (audience.account_id !== account.id) throw notOwner(audience, account);
  const row = id === undefined ? undefined : await findPermission(db, audience.id, id);
  if (!row || row.deleted === 1) throw AdsError.notFound(`Tailored audience permission ${id ?? ''} was not found for custom audience ${audience.id}`, 'tailored_audience_permission_id');
  return updatePermissionRow(db, row.id, { deleted: 1, updated_at: actor.ctx.clock.now().toISOString() });
}


/**
 * Spec 001 "States and transitions": after a permission is deleted, a campaign of the granted
 * account that targets the audience "cannot be copied afterwards". Whatever copies a campaign
 * calls this with the copy source first: it refuses when a live line item of the campaign targets
 * an audience the account neither owns nor holds a live permission on.
 */
export async function checkCampaignCopyable(db: DbOrTx, account: AccountRow, campaignId: string, parameter = 'campaign_id'): Promise<void> {
  const targeted = await db
    .selectFrom('ads_targeting_criteria as t')
    .innerJoin('ads_line_items as l', 'l.id', 't.line_item_id')
    .select('t.targeting_value')
    .distinct()
    .where('l.campaign_id', '=', campaignId)
    .where('l.account_id', '=', account.id)
    .where('l.deleted', '=', 0)
    .where('t.deleted', '=', 0)
    .where('t.targeting_type', 'in', [...AUDIENCE_TYPES])
    .execute();
  for (const { targeting_value: audienceId } of targeted) {
    const visible = await findVisibleAudience(db, account.id, audienceId);
    if (!visible || visible.deleted === 1) {
      throw AdsError.invalidParameter(parameter, `Campaign ${campaignId} targets custom audience ${audienceId}, which is no longer shared with account ${account.id}; the campaign cannot be copied`);
    }
  }
}
