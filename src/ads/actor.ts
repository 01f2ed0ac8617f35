import type { PlatformContext } from '../platform/context.js';
import type { Tier } from '../store/schema.js';
import type { AdsAccountTable, AdsEnvironmentName } from '../store/schema-ads.js';

/** Who acts on the advertising interface, as services see it: no HTTP types. */
export interface AdsActor {
  ctx: PlatformContext;
  env: AdsEnvironmentName;
  userId: string;
  /** The calling app's tier: some parameters are for certain client applications only. */
  appTier: Tier;
}

export type AccountRow = AdsAccountTable;

/** An account the actor may use, with the actor's permissions on it. */
export interface AccountAccess {
  account: AccountRow;
  permissions: string[];
}

/** Permissions that may create, change and delete campaign entities. */
export const WRITE_PERMISSIONS = ['ACCOUNT_ADMIN', 'AD_MANAGER'];

/** Permissions that may compose the account's posts (posts, scheduled and draft posts): the advertiser's grant to a handle. */
export const COMPOSE_PERMISSIONS = ['ACCOUNT_ADMIN', 'AD_MANAGER', 'CREATIVE_MANAGER', 'TWEET_COMPOSER'];
