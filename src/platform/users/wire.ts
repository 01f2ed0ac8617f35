import type { ResourceDeclaration } from '../../http/fields.js';
import { fromJson } from '../../store/store.js';
import type { UserTable } from '../../store/schema.js';
import type { View } from '../view.js';
import { withUserViewerData } from './viewer-fields.js';
import type { UserWire } from './schema.js';

export type UserRow = UserTable;

const bool = (n: number) => n === 1;

/** A user's confirmed email is theirs to see, with the users.email scope. */
const emailShownTo = (u: UserRow, view: View) => !!(view.emailVisible && view.viewerId === u.id && bool(u.email_confirmed) && u.email);

/**
 * Plaza has no paid subscriptions between users (subscription_type is the account's own plan), so
 * no user subscribes to the viewer; the fields need a viewer to be about.
 */
const subscribesToViewer = (_u: UserRow, view: View) => (view.viewerId !== undefined ? false : undefined);

/**
 * The user object: defaults id, name and username, as on the public platform. `withViewData`
 * loads what the viewer-dependent fields read (src/platform/users/viewer-fields.ts).
 */
export const userDeclaration: ResourceDeclaration<UserRow, View, UserWire> & { withViewData: typeof withUserViewerData } = {
  withViewData: withUserViewerData,
  resource: 'user',
  fieldsParam: 'user.fields',
  defaults: ['id', 'name', 'username'],
  fields: {
    id: (u) => u.id,
    name: (u) => u.name,
    username: (u) => u.username,
    affiliation: (u) => fromJson(u.affiliation) ?? undefined,
    confirmed_email: (u, view) => (emailShownTo(u, view) ? u.email! : undefined),
    connection_status: (u, view) => view.relations?.get(u.id),
    created_at: (u) => u.created_at,
    description: (u) => u.description,
    entities: (u) => {
      const entities = fromJson<Record<string, unknown>>(u.entities) ?? {};
      return Object.keys(entities).length > 0 ? entities : undefined;
    },
    is_identity_verified: (u) => bool(u.is_identity_verified),
    location: (u) => u.location ?? undefined,
    most_recent_post_id: (u) => u.most_recent_post_id ?? undefined,
    parody: (u) => bool(u.parody),
    pinned_post_id: (u) => u.pinned_post_id ?? undefined,
    profile_banner_url: (u) => u.profile_banner_url ?? undefined,
    profile_image_url: (u) => u.profile_image_url,
    protected: (u) => bool(u.protected),
    receives_your_dm: (u, view) => (view.viewerId === undefined ? undefined : (view.userData?.dmable?.has(u.id) ?? false)),
    subscribes_to_you: subscribesToViewer,
    subscription: (u, view) => {
      const subscribes = subscribesToViewer(u, view);
      return subscribes === undefined ? undefined : { subscribes_to_you: subscribes };
    },
    public_metrics: (u) => ({
      followers_count: u.followers_count,
      following_count: u.following_count,
      post_count: u.post_count,
      listed_count: u.listed_count,
      like_count: u.like_count,
      media_count: u.media_count,
    }),
    subscription_type: (u) => u.subscription_type,
    url: (u) => u.url ?? '',
    verified: (u) => bool(u.verified),
    verified_followers_count: (u, view) => view.userData?.verifiedFollowers?.get(u.id),
    verified_type: (u) => u.verified_type,
    withheld: (u) => fromJson(u.withheld) ?? undefined,
  },
};

export const affiliatedUserIds = (u: UserRow): string[] => fromJson<{ user_id?: string[] }>(u.affiliation)?.user_id ?? [];
