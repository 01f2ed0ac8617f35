import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { selectFields } from '../../http/fields.js';
import { invalidValue } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import { requireDmAccess, requireSelf } from '../graph/access.js';
import { findUsersByIds } from '../users/store.js';
import { insertPublicKey, publicKeysOf, publicKeysOfUsers } from './store.js';
import { requireBase64 } from './service.js';
import { publicKeyDeclaration } from './wire.js';

export interface NewPublicKey {
  version: string;
  generate_version?: boolean;
  public_key: {
    public_key?: string;
    signing_public_key?: string;
    identity_public_key_signature?: string;
    signing_public_key_signature?: string;
    public_key_fingerprint?: string;
    registration_method?: string;
  };
}

const VERSION = /^[0-9]{1,18}$/;

/**
 * POST /2/users/{id}/public_keys: a user registers a version of their own chat key. Versions are
 * decimal and never reused; generate_version asks for the next one after the newest.
 */
export async function addPublicKey(ctx: PlatformContext, caller: UserCaller, userId: string, input: NewPublicKey): Promise<{ public_key_version: string }> {
  requireSelf(caller, userId, 'id', 'register chat public keys');
  requireDmAccess(caller);
  const key = input.public_key;
  if (!key.public_key) throw invalidValue('public_key.public_key', undefined, 'The `public_key.public_key` body field is missing: it holds the identity public key, base64-encoded.');
  requireBase64('public_key.public_key', key.public_key);
  requireBase64('public_key.signing_public_key', key.signing_public_key);
  if (!input.generate_version && !VERSION.test(input.version)) {
    throw invalidValue('version', input.version, `The \`version\` value [${input.version}] is not a decimal version number.`);
  }
  return ctx.store.db.transaction().execute(async (tx) => {
    const [newest] = await publicKeysOf(tx, userId);
    const version = input.generate_version ? String(newest ? newest.version_number + 1 : 1) : String(BigInt(input.version));
    if (newest && BigInt(version) <= BigInt(newest.version)) {
      throw new ProblemError(409, problems.conflict(`Public key version ${version} is not newer than your newest version ${newest.version}: versions are never reused.`));
    }
    await insertPublicKey(tx, {
      user_id: userId,
      version,
      version_number: Number(version),
      public_key: key.public_key!,
      signing_public_key: key.signing_public_key ?? null,
      identity_public_key_signature: key.identity_public_key_signature ?? null,
      signing_public_key_signature: key.signing_public_key_signature ?? null,
      public_key_fingerprint: key.public_key_fingerprint ?? null,
      registration_method: key.registration_method ?? null,
      created_at: ctx.clock.now().toISOString(),
    });
    return { public_key_version: version };
  });
}

const notFound = (parameter: string, id: string) => problems.resourceNotFound({ parameter, value: id, resource_id: id, resource_type: 'user' });

/** GET /2/users/{id}/public_keys: every version a user registered, newest first. */
export async function userPublicKeys(ctx: PlatformContext, userId: string, fields: ReadonlySet<string>) {
  const [user] = await findUsersByIds(ctx.store.db, [userId]);
  if (!user) return { data: [], errors: [notFound('id', userId)] };
  const keys = await publicKeysOf(ctx.store.db, userId);
  return { data: keys.map((k) => selectFields(publicKeyDeclaration, k, fields, undefined)), errors: [] };
}

/**
 * GET /2/users/public_keys: the current (newest) key of each user, in the order of `ids` (the
 * PublicKey object names no user); a user who is unknown or has no key is an error instead.
 */
export async function usersPublicKeys(ctx: PlatformContext, ids: string[], fields: ReadonlySet<string>) {
  const unique = [...new Set(ids)];
  const found = new Set((await findUsersByIds(ctx.store.db, unique)).map((u) => u.id));
  const keys = await publicKeysOfUsers(ctx.store.db, unique.filter((id) => found.has(id)));
  const data = [];
  const errors = [];
  for (const id of unique) {
    const newest = keys.find((k) => k.user_id === id);
    if (newest) data.push(selectFields(publicKeyDeclaration, newest, fields, undefined));
    else if (!found.has(id)) errors.push(notFound('ids', id));
    else errors.push(problems.resourceNotFound({ parameter: 'ids', value: id, resource_id: id, resource_type: 'user', detail: `User ${id} has no chat public key registered.` }));
  }
  return { data, errors };
}
