import type { PlatformContext } from '../context.js';
import type { WireItem } from '../../http/json-body.js';
import type { Problem } from '../../http/problems.js';
import { expansionsOf, hydrate, ResponseReads, type ExpansionDeclarations, type Includes, type Selection } from '../expansions.js';
import type { View } from '../view.js';
import { findUsersByUsernames } from './store.js';
import { affiliatedUserIds, userDeclaration, type UserRow } from './wire.js';
import { problems } from '../../http/problems.js';

/** The expansions a user response accepts. */
export const userExpansions: ExpansionDeclarations<UserRow> = expansionsOf(userDeclaration, {
  pinned_post_id: { target: 'posts', keys: (u) => (u.pinned_post_id ? [u.pinned_post_id] : []) },
  most_recent_post_id: { target: 'posts', keys: (u) => (u.most_recent_post_id ? [u.most_recent_post_id] : []) },
  affiliation: { target: 'users', keys: affiliatedUserIds },
});

export interface UsersResult {
  data: WireItem[];
  includes?: Includes;
  errors: Problem[];
}

export type UserKey = { by: 'id'; parameter: 'ids' | 'id' } | { by: 'username'; parameter: 'usernames' | 'username' };

/** User lookup by ids or usernames: found users in request order, a resource-not-found item per miss. */
export async function lookupUsers(
  ctx: PlatformContext,
  view: View,
  keys: readonly string[],
  key: UserKey,
  selection: Selection,
): Promise<UsersResult> {
  const reads = new ResponseReads(ctx);
  const rows = key.by === 'id' ? await reads.usersByIds(keys) : await findUsersByUsernames(ctx.store.db, keys);
  const index = new Map(rows.map((u) => [key.by === 'id' ? u.id : u.username_lower, u]));
  const errors: Problem[] = [];
  const found: UserRow[] = [];
  for (const k of keys) {
    const row = index.get(key.by === 'id' ? k : k.toLowerCase());
    if (row) found.push(row);
    else {
      errors.push(
        problems.resourceNotFound({
          parameter: key.parameter,
          value: k,
          resource_id: k,
          resource_type: 'user',
          detail: `Could not find user with ${key.parameter}: [${k}].`,
        }),
      );
    }
  }
  const hydrated = await hydrate(ctx, view, found, userExpansions, selection, found.map((u) => u.id), reads);
  return {
    data: found.map(hydrated.user),
    includes: hydrated.includes,
    errors: [...errors, ...hydrated.errors],
  };
}
