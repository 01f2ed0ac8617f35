import type { CoreContext } from '../context.js';

/**
 * Ads entity ids: short lowercase base-36 strings (shared/DESIGN.md "Rules of the house"),
 * made from the time-ordered platform id so they sort by creation within a length.
 */
export function newAdsId(ctx: Pick<CoreContext, 'ids'>): string {
  return BigInt(ctx.ids.next()).toString(36);
}
