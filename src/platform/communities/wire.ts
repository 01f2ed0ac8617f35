import type { View } from '../view.js';
import type { CommunityRow } from './store.js';

/**
 * The community object (shared/reference S167 Community): defaults id and name. Selected with
 * `community.fields` through the same parse-and-select steps as every other resource; the
 * spec's problem resource types have no community, so it has no ResourceDeclaration of its own.
 */
export const COMMUNITY_DEFAULTS = ['id', 'name'] as const;
export const communityFields: Readonly<Record<string, (c: CommunityRow, view: View) => unknown>> = {
  id: (c) => c.id,
  name: (c) => c.name,
  access: (c) => c.access,
  created_at: (c) => c.created_at,
  description: (c) => c.description,
  join_policy: (c) => c.join_policy,
  member_count: (c) => c.member_count,
};

/** One community with the defaults and the selected fields. */
export function communityWire(community: CommunityRow, view: View, selected: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, get] of Object.entries(communityFields)) {
    if (selected.has(name) || (COMMUNITY_DEFAULTS as readonly string[]).includes(name)) out[name] = get(community, view);
  }
  return out;
}
