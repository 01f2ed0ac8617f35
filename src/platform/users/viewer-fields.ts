import { sql } from 'kysely';
import type { DbOrTx } from '../../store/store.js';
import type { View } from '../view.js';

/**
 * User fields that need more than the user row (user.fields receives_your_dm, subscribes_to_you,
 * subscription, verified_followers_count): read once per response, for the users it shows, and
 * only when one of them is selected. The results travel in the view, as connection_status does.
 */
export interface UserViewerData {
  /** Of the users shown, those the viewer may send a direct message to. */
  dmable?: ReadonlySet<string>;
  /** Followers with verified = 1, by user id. */
  verifiedFollowers?: ReadonlyMap<string, number>;
}

declare module '../view.js' {
  interface View {
    /** What the viewer-dependent user fields read besides the user rows, when selected. */
    userData?: UserViewerData;
  }
}

export const VIEWER_USER_FIELDS = ['receives_your_dm', 'subscribes_to_you', 'subscription', 'verified_followers_count'] as const;

/**
 * Plaza has no per-user "who may message me" setting: a user receives the viewer's direct messages
 * when sending would succeed, by the rules the send path enforces (src/platform/dm/service.ts):
 * neither blocks the other, and no DM block stands between them. Nobody messages themselves.
 */
async function dmableAmong(db: DbOrTx, viewerId: string, others: readonly string[]): Promise<Set<string>> {
  if (others.length === 0) return new Set();
  const [blocks, dmBlocks] = await Promise.all([
    db
      .selectFrom('blocks')
      .select(['source_user_id', 'target_user_id'])
      .where((eb) => eb.or([eb.and([eb('source_user_id', '=', viewerId), eb('target_user_id', 'in', others)]), eb.and([eb('target_user_id', '=', viewerId), eb('source_user_id', 'in', others)])]))
      .execute(),
    db
      .selectFrom('dm_blocks')
      .select(['source_user_id', 'target_user_id'])
      .where((eb) => eb.or([eb.and([eb('source_user_id', '=', viewerId), eb('target_user_id', 'in', others)]), eb.and([eb('target_user_id', '=', viewerId), eb('source_user_id', 'in', others)])]))
      .execute(),
  ]);
  const barred = new Set([...blocks, ...dmBlocks].map((b) => (b.source_user_id === viewerId ? b.target_user_id : b.source_user_id)));
  return new Set(others.filter((id) => !barred.has(id)));
}

async function verifiedFollowerCounts(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map(userIds.map((id) => [id, 0]));
  if (userIds.length === 0) return counts;
  const rows = await db
    .selectFrom('follows as f')
    .innerJoin('users as u', 'u.id', 'f.source_user_id')
    .select(['f.target_user_id', sql<string | number>`count(*)`.as('n')])
    .where('f.target_user_id', 'in', userIds)
    .where('u.verified', '=', 1)
    .groupBy('f.target_user_id')
    .execute();
  for (const r of rows) counts.set(r.target_user_id, Number(r.n));
  return counts;
}

/** The view with what the selected viewer-dependent user fields read; the view itself when none is selected. */
export async function withUserViewerData(db: DbOrTx, view: View, selected: ReadonlySet<string>, userIds: readonly string[]): Promise<View> {
  const wantsDm = selected.has('receives_your_dm') && view.viewerId !== undefined;
  const wantsVerified = selected.has('verified_followers_count');
  if ((!wantsDm && !wantsVerified) || userIds.length === 0) return view;
  const ids = [...new Set(userIds)];
  const [dmable, verifiedFollowers] = await Promise.all([
    wantsDm ? dmableAmong(db, view.viewerId!, ids.filter((id) => id !== view.viewerId)) : undefined,
    wantsVerified ? verifiedFollowerCounts(db, ids) : undefined,
  ]);
  return { ...view, userData: { ...view.userData, ...(dmable ? { dmable } : {}), ...(verifiedFollowers ? { verifiedFollowers } : {}) } };
}
