import crypto from 'node:crypto';
import type { PlatformContext } from '../../platform/context.js';
import type { DbOrTx } from '../../store/store.js';

/**
 * Matching uploaded identifiers against Plaza's own users (shared/reference/ads.md §5). Clients
 * normalise then hash each value with unsalted SHA-256 (lowercase hex); Plaza hashes its users'
 * identifiers the same way and compares digests, so no plain value ever travels:
 * - email: trimmed, lowercased (users.email);
 * - phone_number: E.164, '+' and digits (user_phone_numbers, the one contact point users lacked);
 * - handle: without '@', trimmed, lowercased (users.username);
 * - twitter_id (Plaza also says user_id): the user id as a plain integer.
 * device_id and partner_user_id are kept but match nobody: Plaza knows no devices or partners.
 */
export const USER_KEY_TYPES = ['email', 'phone_number', 'handle', 'twitter_id', 'device_id', 'partner_user_id'] as const;
export type UserKeyType = (typeof USER_KEY_TYPES)[number];
/** Plaza's name for twitter_id. */
export const USER_KEY_ALIASES: Record<string, UserKeyType> = { user_id: 'twitter_id' };
/** The one key whose values are not hashed. */
export const UNHASHED_KEY: UserKeyType = 'partner_user_id';
export const SHA256_HEX = /^[0-9a-f]{64}$/;

export const sha256Hex = (text: string): string => crypto.createHash('sha256').update(text, 'utf8').digest('hex');

export const normaliseEmail = (email: string) => email.trim().toLowerCase();
export const normaliseHandle = (handle: string) => handle.trim().replace(/^@/, '').trim().toLowerCase();
export const normalisePhone = (phone: string) => `+${phone.replace(/[^0-9]/g, '')}`;

/** type -> digest -> the users it names. Two levels, so a lookup builds no joined key string. */
type UserIndex = Map<string, Map<string, string[]>>;

/** Per store: several Plazas may share a process (tests), each with its own users. */
const cached = new WeakMap<object, { generation: string; index: UserIndex }>();

/**
 * The digests of every user's identifiers. On SQLite it is kept while neither users nor phone
 * numbers were written; on PostgreSQL (other processes write unseen) it is built per batch.
 */
async function userIndex(ctx: Pick<PlatformContext, 'store'>, db: DbOrTx): Promise<UserIndex> {
  const generation = ctx.store.tableGeneration('users', 'user_phone_numbers');
  const kept = cached.get(ctx.store);
  if (generation !== undefined && kept?.generation === generation) return kept.index;
  const index: UserIndex = new Map();
  const add = (type: UserKeyType, value: string, userId: string) => {
    const hash = sha256Hex(value);
    let byHash = index.get(type);
    if (!byHash) index.set(type, (byHash = new Map()));
    const list = byHash.get(hash);
    if (list) list.push(userId);
    else byHash.set(hash, [userId]);
  };
  const rows = await db
    .selectFrom('users')
    .leftJoin('user_phone_numbers', 'user_phone_numbers.user_id', 'users.id')
    .select(['users.id', 'users.username', 'users.email', 'user_phone_numbers.phone_number'])
    .execute();
  for (const r of rows) {
    add('twitter_id', r.id, r.id);
    add('handle', normaliseHandle(r.username), r.id);
    if (r.email) add('email', normaliseEmail(r.email), r.id);
    if (r.phone_number) add('phone_number', normalisePhone(r.phone_number), r.id);
  }
  if (generation !== undefined) cached.set(ctx.store, { generation, index });
  return index;
}

/** Finds the user each (type, digest) names; unmatched ones are absent. */
export async function matchUsers(ctx: Pick<PlatformContext, 'store'>, db: DbOrTx): Promise<(type: string, hash: string) => string | undefined> {
  const index = await userIndex(ctx, db);
  return (type, hash) => index.get(type)?.get(hash)?.[0];
}
