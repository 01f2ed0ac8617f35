import type { MediaTable } from '../../store/schema.js';
import type { MediaUploadTable } from '../../store/schema-posts.js';
import { fromJson, type DbOrTx } from '../../store/store.js';
import { createAccountMediaFor, deleteAccountMediaOf } from '../account-media/service.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { AdsError } from '../http/errors.js';
import { entitySorting, runList, type ListRequest } from '../http/list.js';
import { newAdsId } from '../ids.js';
import { accountUserIds } from '../promoted/store.js';
import { findLibraryEntry, findMediaByKey, findUploadByKey, insertLibraryEntry, libraryOf, updateLibraryEntry, withMedia, type LibraryEntry, type MediaLibraryRow } from './store.js';

/**
 * The media library (spec 001 "Media library"): media uploaded through POST /2/media/upload with
 * a media category, added to an account by media_key. What the object says of the media (type,
 * dimensions, duration, aspect ratio, status) is read from the platform's store, which read it
 * from the uploaded bytes. Adding a PROMO_VIDEO makes it PREROLL account media.
 */
export const MEDIA_LIBRARY_SORTING = entitySorting();
export const MEDIA_TYPES = ['GIF', 'IMAGE', 'VIDEO'] as const;
export const LIMITS = { name: 100, file_name: 255, title: 70, description: 200 } as const;

/** The upload's media_category (the reference OpenAPI's values, 'tweet' renamed 'post') as the ads interface names it. */
const CATEGORY_OF_UPLOAD: Readonly<Record<string, string>> = {
  post_image: 'POST_IMAGE',
  post_gif: 'POST_GIF',
  post_video: 'POST_VIDEO',
  amplify_video: 'PROMO_VIDEO',
};
// Subtitle files are never media library items (the library refuses them), so they have no category.
const CATEGORY_OF_TYPE: Readonly<Partial<Record<MediaTable['type'], string>>> = { photo: 'POST_IMAGE', animated_gif: 'POST_GIF', video: 'POST_VIDEO' };
const TYPE_OF_CATEGORY: Readonly<Record<string, string>> = { POST_IMAGE: 'IMAGE', POST_GIF: 'GIF', POST_VIDEO: 'VIDEO', PROMO_VIDEO: 'VIDEO' };

const notFound = (key: string, account: AccountRow, parameter = 'media_key') =>
  new AdsError(404, [{ code: 'MEDIA_NOT_FOUND', message: `Media ${key} was not found in the media library of Account ${account.id}`, parameter }]);

/** Whether the media (or upload) belongs to one of the account's users: its owner or an additional owner. */
async function usableByAccount(db: DbOrTx, account: AccountRow, ownerId: string, additional: string | null): Promise<boolean> {
  const users = new Set(await accountUserIds(db, account.id));
  return users.has(ownerId) || (fromJson<string[]>(additional) ?? []).some((id) => users.has(id));
}

/** A media of the platform's store the account may use (uploaded by or for one of its users), or 404 naming `parameter`. */
export async function usableMedia(db: DbOrTx, account: AccountRow, key: string, parameter: string): Promise<MediaTable> {
  const media = await findMediaByKey(db, key);
  if (!media || !(await usableByAccount(db, account, media.owner_user_id, media.additional_owners))) {
    throw new AdsError(404, [{ code: 'MEDIA_NOT_FOUND', message: `Media ${key} was not found; upload it with POST /2/media/upload first`, parameter }]);
  }
  return media;
}

/** What a media key stands for when it is added: the stored media, or an upload still processing. */
async function uploadedMedia(db: DbOrTx, account: AccountRow, key: string): Promise<{ media?: MediaTable; upload?: MediaUploadTable; category: string }> {
  const media = await findMediaByKey(db, key);
  if (media && (await usableByAccount(db, account, media.owner_user_id, media.additional_owners))) {
    return { media, category: categoryOf(media.media_category, media.type, key) };
  }
  const upload = media ? undefined : await findUploadByKey(db, key);
  if (upload && (await usableByAccount(db, account, upload.owner_user_id, upload.additional_owners))) {
    return { upload, category: categoryOf(upload.media_category, undefined, key) };
  }
  throw new AdsError(404, [{ code: 'MEDIA_NOT_FOUND', message: `Media ${key} was not found; upload it with POST /2/media/upload (with a media_category) first`, parameter: 'media_key' }]);
}

function categoryOf(uploadCategory: string | null, type: MediaTable['type'] | undefined, key: string): string {
  if (uploadCategory?.startsWith('dm_')) {
    throw AdsError.invalidParameter('media_key', `Media ${key} was uploaded for direct messages (${uploadCategory}); upload it with media_category post_image, post_gif, post_video or amplify_video`);
  }
  const category = uploadCategory ? CATEGORY_OF_UPLOAD[uploadCategory] : type ? CATEGORY_OF_TYPE[type] : undefined;
  if (!category) throw AdsError.invalidParameter('media_key', `Media ${key} has media_category ${uploadCategory}, which the media library does not hold`);
  return category;
}

export interface LibraryInput {
  description?: string | null;
  file_name?: string | null;
  name?: string | null;
  poster_media_key?: string | null;
  title?: string | null;
}

/** description, title and poster_media_key are for videos only; a poster is an image. */
async function checkVideoFields(db: DbOrTx, account: AccountRow, mediaType: string, p: LibraryInput): Promise<void> {
  for (const name of ['description', 'title', 'poster_media_key'] as const) {
    if (p[name] != null && mediaType !== 'VIDEO') throw AdsError.invalidParameter(name, `${name} may be set for videos only; this media is ${mediaType}`);
  }
  if (p.poster_media_key) {
    const poster = await usableMedia(db, account, p.poster_media_key, 'poster_media_key');
    if (poster.type !== 'photo') throw AdsError.invalidParameter('poster_media_key', `poster_media_key must name an image, got ${poster.type === 'video' ? 'a video' : 'a GIF'}`);
  }
}

export async function addToLibrary(actor: AdsActor, db: DbOrTx, account: AccountRow, p: LibraryInput & { media_key: string }): Promise<LibraryEntry> {
  const found = await uploadedMedia(db, account, p.media_key);
  const mediaType = TYPE_OF_CATEGORY[found.category];
  await checkVideoFields(db, account, mediaType, p);
  if (await findLibraryEntry(db, account.id, p.media_key)) {
    throw AdsError.invalidParameter('media_key', `Media ${p.media_key} is already in the media library of Account ${account.id}; change it with PUT`);
  }
  const now = actor.ctx.clock.now().toISOString();
  const row: MediaLibraryRow = {
    id: newAdsId(actor.ctx),
    account_id: account.id,
    media_key: p.media_key,
    media_type: mediaType,
    media_category: found.category,
    name: p.name ?? null,
    file_name: p.file_name ?? null,
    title: p.title ?? null,
    description: p.description ?? null,
    poster_media_key: p.poster_media_key ?? null,
    posted: 0,
    created_by: actor.userId,
    created_at: now,
    updated_at: now,
    deleted: 0,
  };
  await insertLibraryEntry(db, row);
  await createAccountMediaFor(actor, db, account, row, found.media);
  const [entry] = await withMedia(db, [row]);
  return entry;
}

export async function getLibraryEntry(db: DbOrTx, account: AccountRow, key: string): Promise<LibraryEntry> {
  const row = await findLibraryEntry(db, account.id, key);
  if (!row) throw notFound(key, account);
  const [entry] = await withMedia(db, [row]);
  return entry;
}

/**
 * A live library entry usable as `types` (cards, posts): the media must have finished
 * processing. Answers the entry with its media row.
 */
export async function requireLibraryMedia(db: DbOrTx, account: AccountRow, key: string, parameter: string, types: readonly string[]): Promise<LibraryEntry & { media: MediaTable }> {
  const row = await findLibraryEntry(db, account.id, key);
  if (!row) throw notFound(key, account, parameter);
  const [entry] = await withMedia(db, [row]);
  if (!types.includes(row.media_type)) throw AdsError.invalidParameter(parameter, `Media ${key} is ${row.media_type}; ${parameter} takes ${types.join(' or ')} media`);
  if (!entry.media) throw AdsError.invalidParameter(parameter, `Media ${key} is still processing (media_status TRANSCODING); use it once the upload is finalized`);
  return { ...entry, media: entry.media };
}

export async function updateLibrary(actor: AdsActor, db: DbOrTx, account: AccountRow, key: string, p: LibraryInput): Promise<LibraryEntry> {
  const before = await findLibraryEntry(db, account.id, key);
  if (!before) throw notFound(key, account);
  await checkVideoFields(db, account, before.media_type, p);
  const changes: Partial<MediaLibraryRow> = {};
  for (const name of ['description', 'file_name', 'name', 'poster_media_key', 'title'] as const) if (p[name] !== undefined) changes[name] = p[name];
  const after = await updateLibraryEntry(db, before.id, { ...changes, updated_at: actor.ctx.clock.now().toISOString() });
  const [entry] = await withMedia(db, [after]);
  return entry;
}

/** DELETE: the object with deleted = true; the account media made from it go with it. */
export async function deleteFromLibrary(actor: AdsActor, db: DbOrTx, account: AccountRow, key: string): Promise<LibraryEntry> {
  const before = await findLibraryEntry(db, account.id, key);
  if (!before) throw notFound(key, account);
  const now = actor.ctx.clock.now().toISOString();
  const after = await updateLibraryEntry(db, before.id, { deleted: 1, updated_at: now });
  await deleteAccountMediaOf(db, account, before.media_key, now);
  const [entry] = await withMedia(db, [after]);
  return entry;
}

export async function listLibrary(db: DbOrTx, account: AccountRow, p: ListRequest & { media_type?: string; q?: string }) {
  const page = await runList(db, libraryOf(db, account.id, { mediaType: p.media_type, q: p.q }), MEDIA_LIBRARY_SORTING, p);
  return { ...page, rows: await withMedia(db, page.rows) };
}
