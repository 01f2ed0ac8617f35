import type { DbOrTx } from '../../store/store.js';
import type { AdsActor } from '../actor.js';
import { newAdsId } from '../ids.js';

/** The entities whose changes the account history keeps (spec 001 "Accounts and related"). */
export const HISTORY_ENTITIES = ['CAMPAIGN', 'LINE_ITEM', 'PROMOTED_POST', 'TARGETING_CRITERIA', 'PROMOTED_ACCOUNT'] as const;
export type HistoryEntity = (typeof HISTORY_ENTITIES)[number];
export type ChangeType = 'CREATE' | 'UPDATE' | 'DELETE';

/** How the public platform labels a change made through the API by a third-party client. */
export const API_PLATFORM = 'API_OTHER' as const;

type Snapshot = Record<string, unknown>;

/** Field-by-field differences, `updated_at` aside: {field: {old, new}}. */
export function diffSnapshots(before: Snapshot, after: Snapshot): Record<string, { old: unknown; new: unknown }> {
  const changes: Record<string, { old: unknown; new: unknown }> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (key === 'updated_at') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changes[key] = { old: before[key] ?? null, new: after[key] ?? null };
  }
  return changes;
}

/**
 * Records one change in the account history, inside the transaction that makes it, so a record
 * exists exactly when its change does. `entityData` is the entity after the change.
 */
export async function recordChange(
  actor: AdsActor,
  db: DbOrTx,
  change: { accountId: string; entity: HistoryEntity; entityId: string; type: ChangeType; before?: Snapshot; entityData: Snapshot },
): Promise<void> {
  const changes = change.type === 'CREATE' || !change.before ? {} : diffSnapshots(change.before, change.entityData);
  if (change.type === 'UPDATE' && Object.keys(changes).length === 0) return;
  await db
    .insertInto('ads_account_history')
    .values({
      id: newAdsId(actor.ctx),
      account_id: change.accountId,
      entity_type: change.entity,
      entity_id: change.entityId,
      change_type: change.type,
      changes: JSON.stringify(changes),
      entity_data: JSON.stringify(change.entityData),
      user_id: actor.userId,
      platform: API_PLATFORM,
      change_time: actor.ctx.clock.now().toISOString(),
    })
    .execute();
}
