import type { DbOrTx } from '../../store/store.js';
import type { AccountRow } from '../actor.js';
import { hasFeature } from '../accounts/service.js';
import { AdsError } from '../http/errors.js';
import { runList, type Sorting } from '../http/list.js';
import { wireTime } from '../http/time.js';

/**
 * GET accounts/:account_id/account_history (spec 001 "Accounts and related"): beta, for
 * allowlisted accounts only (the ACCOUNT_HISTORY account feature); entity_type, entity_id,
 * start_time and end_time required, the times in whole hours. Newest change first.
 */
export const HISTORY_FEATURE = 'ACCOUNT_HISTORY';
const HISTORY_SORTING: Sorting = { fields: { change_time: { column: 'change_time' } }, id: 'id', default: { field: 'change_time', dir: 'desc' } };

export interface HistoryQuery {
  count: number;
  cursor?: string;
  entity_type: string;
  entity_id: string;
  start_time: string;
  end_time: string;
  user_id?: string;
}

function checkWholeHour(name: string, iso: string): void {
  const d = new Date(iso);
  if (d.getUTCMinutes() !== 0 || d.getUTCSeconds() !== 0 || d.getUTCMilliseconds() !== 0) {
    throw AdsError.invalidParameter(name, `${name} must be expressed in whole hours (0 minutes and 0 seconds), got ${wireTime(iso)}`);
  }
}

export async function accountHistory(db: DbOrTx, account: AccountRow, q: HistoryQuery) {
  if (!(await hasFeature(db, account, HISTORY_FEATURE))) {
    throw new AdsError(400, [{ code: 'FEATURE_NOT_AVAILABLE', message: `Account history is in beta and requires allowlisting; account ${account.id} is not allowlisted` }]);
  }
  checkWholeHour('start_time', q.start_time);
  checkWholeHour('end_time', q.end_time);
  if (q.end_time <= q.start_time) throw AdsError.invalidParameter('end_time', 'end_time must be after start_time');
  let query = db
    .selectFrom('ads_account_history')
    .selectAll()
    .where('account_id', '=', account.id)
    .where('entity_type', '=', q.entity_type)
    .where('entity_id', '=', q.entity_id)
    .where('change_time', '>=', q.start_time)
    .where('change_time', '<', q.end_time);
  if (q.user_id !== undefined) query = query.where('user_id', '=', q.user_id);
  return runList(db, query, HISTORY_SORTING, { count: q.count, cursor: q.cursor });
}
