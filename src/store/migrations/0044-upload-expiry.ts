import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/**
 * Upload sessions that expire open (src/platform/media/sweeper.ts): the sweep looks for them by
 * expiry among the open ones only, so its look stays small however many finalized sessions the
 * store keeps.
 */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await sql`create index media_uploads_open_expiry on media_uploads (expires_at) where state = 'uploading'`.execute(db);
  await sql`create index chat_media_open_expiry on chat_media (expires_at) where state = 'uploading'`.execute(db);
}
