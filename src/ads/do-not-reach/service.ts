import type { DbOrTx } from '../../store/store.js';
import { AccountEntity, entitiesOf } from '../account-entity.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { applyUserBatch, batchRequestEcho, matchedUserCounts, matchedUserIds, parseUserBatch } from '../audiences/batch.js';
import { processingUntil } from '../audiences/status.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import { liveListOf, updateListRow, type DoNotReachRow } from './store.js';
import { doNotReachWire } from './wire.js';

/**
 * Do-not-reach lists (spec 001 "Do-not-reach list", shared/reference/ads.md §5): one per account,
 * hashed identifiers uploaded by the same batch as custom audiences (expires_at required, within
 * 13 months, no effective_at); the users they match are left out of the account's audience estimates.
 */
export const DO_NOT_REACH_SORTING = entitySorting(undefined, { name: { column: 'name' } });
const DO_NOT_REACH_LISTS = new AccountEntity({ table: 'ads_do_not_reach_lists', label: 'Do-not-reach list', parameter: 'do_not_reach_list_id' });

export async function doNotReachWires(db: DbOrTx, rows: DoNotReachRow[], now: Date) {
  const sizes = await matchedUserCounts(db, rows.map((r) => r.id), now);
  return rows.map((r) => doNotReachWire(r, sizes.get(r.id) ?? 0, now));
}

export function listDoNotReachLists(db: DbOrTx, account: AccountRow, p: ListRequest & { with_deleted: boolean }) {
  return runList(db, entitiesOf(db, 'ads_do_not_reach_lists', account.id, { withDeleted: p.with_deleted }), DO_NOT_REACH_SORTING, p);
}

export function getDoNotReachList(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false): Promise<DoNotReachRow> {
  return DO_NOT_REACH_LISTS.get(db, account, id, withDeleted);
}

export async function createDoNotReachList(actor: AdsActor, db: DbOrTx, account: AccountRow, p: { name?: string; description?: string }): Promise<DoNotReachRow> {
  const existing = await liveListOf(db, account.id);
  if (existing) {
    throw AdsError.invalidParameter('account_id', `Account ${account.id} already has do-not-reach list ${existing.id}; an account has one list`, 'DUPLICATE_DO_NOT_REACH_LIST');
  }
  return DO_NOT_REACH_LISTS.create(actor, db, account, {
    name: p.name ?? 'Do-not-reach list',
    description: p.description ?? null,
    processing_until: null,
  });
}

/** DELETE: deleted = true, the deleted list returned; a second DELETE is 404. */
export function deleteDoNotReachList(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<DoNotReachRow> {
  return DO_NOT_REACH_LISTS.delete(actor, db, account, id);
}

/** POST batch/.../do_not_reach_lists/:id/users: `request` echoes the batch as an array. */
export async function uploadDoNotReachUsers(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined, body: unknown, contentType: string) {
  const list = await getDoNotReachList(db, account, id);
  const now = actor.ctx.clock.now();
  const batch = parseUserBatch(body, contentType, { expiresAtRequired: true, acceptsEffectiveAt: false }, now);
  const applied = await applyUserBatch(actor.ctx, db, list.id, batch);
  await updateListRow(db, list.id, { processing_until: processingUntil(now), updated_at: now.toISOString() });
  return { data: [{ success_count: applied, total_count: batch.records }], request: batchRequestEcho(batch.echo) };
}

/** The users an account's live do-not-reach list matches now: never counted in its audience estimates. */
export async function doNotReachUsers(db: DbOrTx, accountId: string, now: Date): Promise<Set<string>> {
  const list = await liveListOf(db, accountId);
  return list ? matchedUserIds(db, [list.id], now) : new Set();
}
