import type { AppRow } from '../../auth/store.js';
import type { Tier } from '../../store/schema.js';
import { ProblemError, problems } from '../../http/problems.js';

/**
 * Who a usage cap belongs to, and the usage-capped answer. Plaza's project is the app (as for
 * stream rules); an app's developer account is its owner, or the app itself when it has none.
 */
export const accountOf = (app: Pick<AppRow, 'id' | 'owner_user_id'>): string => app.owner_user_id ?? app.id;
export const projectOf = (app: Pick<AppRow, 'id'>): string => app.id;

/** The product a usage-capped problem names: the public platform's self-serve products are standard-<tier>. */
export const productName = (tier: Tier): string => (tier === 'free' || tier === 'basic' || tier === 'pro' ? `standard-${tier}` : tier);

/** 429 usage-capped, as the public platform answers it (its account_id and product_name besides the problem's members). */
export function usageCapped(app: Pick<AppRow, 'id' | 'owner_user_id' | 'tier'>, period: 'Daily' | 'Monthly', scope: 'Account' | 'Product'): ProblemError {
  return new ProblemError(429, { account_id: accountOf(app), product_name: productName(app.tier), ...problems.usageCapped({ period, scope }) });
}
