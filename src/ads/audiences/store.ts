import { sql } from 'kysely';
import type { AdsAudiencePermissionTable, AdsCustomAudienceTable } from '../../store/schema-ads-audiences.js';
import type { DbOrTx } from '../../store/store.js';
import { namePrefix } from '../http/list.js';

export type AudienceRow = AdsCustomAudienceTable;
export type PermissionRow = AdsAudiencePermissionTable;

/** An audience as an account sees it: its own, or shared with it by a live permission. */
export interface VisibleAudience extends AudienceRow {
  /** The level of the permission that shares it; null for the owner. */
  granted_level: string | null;
}

/** The audiences an account may see: those it owns and those shared with it. */
export function audiencesVisibleTo(db: DbOrTx, accountId: string, f: { ids?: string[]; q?: string; withDeleted: boolean }) {
  let query = db
    .selectFrom('ads_custom_audiences as a')
    .leftJoin('ads_audience_permissions as p', (j) => j.onRef('p.audience_id', '=', 'a.id').on('p.granted_account_id', '=', accountId).on('p.deleted', '=', 0))
    .selectAll('a')
    .select(sql<string | null>`p.permission_level`.as('granted_level'))
    .where((eb) => eb.or([eb('a.account_id', '=', accountId), eb('p.id', 'is not', null)]));
  if (f.ids) query = query.where('a.id', 'in', f.ids);
  if (f.q !== undefined) query = query.where(namePrefix('a.name', f.q));
  if (!f.withDeleted) query = query.where('a.deleted', '=', 0);
  return query;
}

export async function findVisibleAudience(db: DbOrTx, accountId: string, id: string): Promise<VisibleAudience | undefined> {
  return audiencesVisibleTo(db, accountId, { ids: [id], withDeleted: true }).executeTakeFirst();
}

export async function liveAudienceNamed(db: DbOrTx, accountId: string, name: string): Promise<AudienceRow | undefined> {
  return db.selectFrom('ads_custom_audiences').selectAll().where('account_id', '=', accountId).where('name', '=', name).where('deleted', '=', 0).executeTakeFirst();
}

export async function insertAudience(db: DbOrTx, row: AudienceRow): Promise<void> {
  await db.insertInto('ads_custom_audiences').values(row).execute();
}

export async function updateAudienceRow(db: DbOrTx, id: string, changes: Partial<AudienceRow>): Promise<AudienceRow> {
  return db.updateTable('ads_custom_audiences').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export function permissionsOf(db: DbOrTx, audienceId: string, f: { ids?: string[]; grantedAccountIds?: string[]; withDeleted?: boolean }) {
  let query = db.selectFrom('ads_audience_permissions').selectAll().where('audience_id', '=', audienceId);
  if (f.ids) query = query.where('id', 'in', f.ids);
  if (f.grantedAccountIds) query = query.where('granted_account_id', 'in', f.grantedAccountIds);
  if (!f.withDeleted) query = query.where('deleted', '=', 0);
  return query;
}

export async function findPermission(db: DbOrTx, audienceId: string, id: string): Promise<PermissionRow | undefined> {
  return db.selectFrom('ads_audience_permissions').selectAll().where('audience_id', '=', audienceId).where('id', '=', id).executeTakeFirst();
}

export async function livePermissionFor(db: DbOrTx, audienceId: string, grantedAccountId: string): Promise<PermissionRow | undefined> {
  return permissionsOf(db, audienceId, { grantedAccountIds: [grantedAccountId] }).executeTakeFirst();
}

export async function insertPermission(db: DbOrTx, row: PermissionRow): Promise<void> {
  await db.insertInto('ads_audience_permissions').values(row).execute();
}

export async function updatePermissionRow(db: DbOrTx, id: string, changes: Partial<PermissionRow>): Promise<PermissionRow> {
  return db.updateTable('ads_audience_permissions').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Line items of an account whose live criteria target an audience, with their campaigns. */
export async function lineItemsTargeting(db: DbOrTx, accountId: string, audienceId: string, types: readonly string[]) {
  return db
    .selectFrom('ads_targeting_criteria as t')
    .innerJoin('ads_line_items as l', 'l.id', 't.line_item_id')
    .innerJoin('ads_campaigns as c', 'c.id', 'l.campaign_id')
    .select([
      'c.id as campaign_id',
      'c.name as campaign_name',
      'c.entity_status as campaign_status',
      'l.id as line_item_id',
      'l.name as line_item_name',
      'l.entity_status as line_item_status',
      'l.end_time as end_time',
    ])
    .distinct()
    .where('t.account_id', '=', accountId)
    .where('t.targeting_type', 'in', [...types])
    .where('t.targeting_value', '=', audienceId)
    .where('t.deleted', '=', 0)
    .where('l.deleted', '=', 0)
    .where('c.deleted', '=', 0)
    .orderBy('c.id')
    .orderBy('l.id')
    .execute();
}
