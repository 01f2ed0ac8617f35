import type { DbOrTx } from '../../store/store.js';
import type { MediaUploadTable } from '../../store/schema-posts.js';
import type { MediaRow } from './wire.js';

export type MediaUploadRow = MediaUploadTable;

export async function findMediaByKeys(db: DbOrTx, keys: readonly string[]): Promise<MediaRow[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('media').selectAll().where('media_key', 'in', keys).execute();
}

export async function findMediaByIdList(db: DbOrTx, ids: readonly string[]): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('media').selectAll().where('id', 'in', ids).execute();
}

export async function insertMedia(db: DbOrTx, row: MediaRow): Promise<void> {
  await db.insertInto('media').values(row).execute();
}

export async function findUpload(db: DbOrTx, id: string): Promise<MediaUploadRow | undefined> {
  return db.selectFrom('media_uploads').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUpload(db: DbOrTx, row: MediaUploadRow): Promise<void> {
  await db.insertInto('media_uploads').values(row).execute();
}

/** Moves an upload from one state to the next; false when it was not in `from` (another request got there first). */
export async function moveUpload(db: DbOrTx, id: string, from: string, to: string): Promise<boolean> {
  const result = await db.updateTable('media_uploads').set({ state: to }).where('id', '=', id).where('state', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
