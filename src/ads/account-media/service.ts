import type { MediaTable } from '../../store/schema.js';
import type { AdsMediaLibraryTable } from '../../store/schema-ads-media.js';
import type { DbOrTx } from '../../store/store.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import { newAdsId } from '../ids.js';
import { accountMediaOf, findAccountMedia, insertAccountMedia, markAccountMediaDeleted, type AccountMediaRow } from './store.js';

/**
 * Account media (spec 001 "Account media"): the media an account can use in media creatives.
 * Media enter it through the media library POST: a PROMO_VIDEO becomes PREROLL account media
 * (spec 001 "States and transitions"), and an image of one of the display ad sizes of the
 * audience network becomes account media of that creative type.
 */
export const ACCOUNT_MEDIA_SORTING = entitySorting('am', { creative_type: { column: 'am.creative_type' } });
export const CREATIVE_TYPES = [
  'BANNER',
  'BANNER_TABLET',
  'INTERSTITIAL',
  'INTERSTITIAL_LANDSCAPE',
  'INTERSTITIAL_LANDSCAPE_TABLET',
  'INTERSTITIAL_TABLET',
  'MEDIUM_RECTANGLE',
  'PREROLL',
  'VAST_PREROLL',
] as const;

/** Display image sizes of the public platform's audience network, each also at double density. */
const DISPLAY_SIZES: ReadonlyArray<[string, number, number]> = [
  ['BANNER', 320, 50],
  ['BANNER_TABLET', 728, 90],
  ['INTERSTITIAL', 320, 480],
  ['INTERSTITIAL_LANDSCAPE', 480, 320],
  ['INTERSTITIAL_LANDSCAPE_TABLET', 1024, 768],
  ['INTERSTITIAL_TABLET', 768, 1024],
  ['MEDIUM_RECTANGLE', 300, 250],
];

/** The creative type an image of this size serves as, if any. */
export function displayCreativeType(width: number | null, height: number | null): string | undefined {
  return DISPLAY_SIZES.find(([, w, h]) => [1, 2].some((k) => width === w * k && height === h * k))?.[0];
}

/** Called by the media library POST: the account media a new library object makes available. */
export async function createAccountMediaFor(actor: AdsActor, db: DbOrTx, account: AccountRow, entry: AdsMediaLibraryTable, media: MediaTable | undefined): Promise<void> {
  const creativeType = entry.media_category === 'PROMO_VIDEO' ? 'PREROLL' : entry.media_type === 'IMAGE' && media ? displayCreativeType(media.width, media.height) : undefined;
  if (!creativeType) return;
  await insertAccountMedia(db, {
    id: newAdsId(actor.ctx),
    account_id: account.id,
    media_key: entry.media_key,
    creative_type: creativeType,
    created_at: entry.created_at,
    updated_at: entry.created_at,
    deleted: 0,
  });
}

export async function deleteAccountMediaOf(db: DbOrTx, account: AccountRow, mediaKey: string, at: string): Promise<void> {
  await markAccountMediaDeleted(db, account.id, { mediaKey }, at);
}

export function listAccountMedia(db: DbOrTx, account: AccountRow, p: ListRequest & { account_media_ids?: string[]; creative_types?: string[]; with_deleted: boolean }) {
  return runList(db, accountMediaOf(db, account.id, { ids: p.account_media_ids, creativeTypes: p.creative_types, withDeleted: p.with_deleted }), ACCOUNT_MEDIA_SORTING, p);
}

export async function getAccountMedia(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false, parameter = 'account_media_id'): Promise<AccountMediaRow> {
  const row = id === undefined ? undefined : await findAccountMedia(db, account.id, id);
  if (!row || (row.deleted === 1 && !withDeleted)) {
    throw new AdsError(404, [{ code: 'ACCOUNT_MEDIA_NOT_FOUND', message: `Account Media ${id ?? ''} was not found for Account ${account.id}`, parameter }]);
  }
  return row;
}

export async function deleteAccountMedia(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<AccountMediaRow> {
  const before = await getAccountMedia(db, account, id);
  await markAccountMediaDeleted(db, account.id, { id: before.id }, actor.ctx.clock.now().toISOString());
  return getAccountMedia(db, account, before.id, true);
}
