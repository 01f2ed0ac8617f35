import { sql, type SqlBool } from 'kysely';
import type { AdsMediaLibraryTable } from '../../store/schema-ads-media.js';
import type { MediaTable } from '../../store/schema.js';
import type { MediaUploadTable } from '../../store/schema-posts.js';
import type { DbOrTx } from '../../store/store.js';

export type MediaLibraryRow = AdsMediaLibraryTable;

/** A library entry with what the platform's store knows of its media (absent while an upload is processing). */
export interface LibraryEntry {
  entry: MediaLibraryRow;
  media?: MediaTable;
  upload?: MediaUploadTable;
  poster?: MediaTable;
}

export function libraryOf(db: DbOrTx, accountId: string, f: { mediaType?: string; q?: string; withDeleted?: boolean }) {
  let query = db.selectFrom('ads_media_library').selectAll().where('account_id', '=', accountId);
  if (!f.withDeleted) query = query.where('deleted', '=', 0);
  if (f.mediaType) query = query.where('media_type', '=', f.mediaType);
  if (f.q) {
    // Every term of q, case-insensitively, in name, title, file_name or description.
    for (const term of f.q.toLowerCase().split(/\s+/).filter(Boolean)) {
      const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const like = (column: string) => sql<SqlBool>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`;
      query = query.where((eb) => eb.or([like('name'), like('title'), like('file_name'), like('description')]));
    }
  }
  return query;
}

/** The live entry of a media key in the account's library. */
export async function findLibraryEntry(db: DbOrTx, accountId: string, mediaKey: string): Promise<MediaLibraryRow | undefined> {
  return db.selectFrom('ads_media_library').selectAll().where('account_id', '=', accountId).where('media_key', '=', mediaKey).where('deleted', '=', 0).executeTakeFirst();
}

export async function insertLibraryEntry(db: DbOrTx, row: MediaLibraryRow): Promise<void> {
  await db.insertInto('ads_media_library').values(row).execute();
}

export async function updateLibraryEntry(db: DbOrTx, id: string, changes: Partial<MediaLibraryRow>): Promise<MediaLibraryRow> {
  return db.updateTable('ads_media_library').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function markPosted(db: DbOrTx, accountId: string, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.updateTable('ads_media_library').set({ posted: 1 }).where('account_id', '=', accountId).where('media_key', 'in', keys).where('deleted', '=', 0).execute();
}

/** The media rows, upload sessions and posters behind library entries, read once for a page. */
export async function withMedia(db: DbOrTx, rows: readonly MediaLibraryRow[]): Promise<LibraryEntry[]> {
  if (rows.length === 0) return [];
  const keys = [...new Set(rows.flatMap((r) => [r.media_key, ...(r.poster_media_key ? [r.poster_media_key] : [])]))];
  const media = new Map((await db.selectFrom('media').selectAll().where('media_key', 'in', keys).execute()).map((m) => [m.media_key, m]));
  const pending = rows.filter((r) => !media.has(r.media_key)).map((r) => r.media_key);
  const uploads = new Map(
    pending.length ? (await db.selectFrom('media_uploads').selectAll().where('media_key', 'in', pending).execute()).map((u) => [u.media_key, u]) : [],
  );
  return rows.map((entry) => ({
    entry,
    media: media.get(entry.media_key),
    upload: uploads.get(entry.media_key),
    poster: entry.poster_media_key ? media.get(entry.poster_media_key) : undefined,
  }));
}

export async function findMediaByKey(db: DbOrTx, key: string): Promise<MediaTable | undefined> {
  return db.selectFrom('media').selectAll().where('media_key', '=', key).executeTakeFirst();
}

export async function findUploadByKey(db: DbOrTx, key: string): Promise<MediaUploadTable | undefined> {
  return db.selectFrom('media_uploads').selectAll().where('media_key', '=', key).executeTakeFirst();
}
