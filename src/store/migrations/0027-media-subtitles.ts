import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';

/** Subtitle tracks of videos; the same on SQLite and PostgreSQL. */
export async function up(db: Kysely<any>, _dialect: StoreDialect): Promise<void> {
  await db.schema
    .createTable('media_subtitles')
    .addColumn('media_id', 'text', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('language_code', 'text', (c) => c.notNull())
    .addColumn('subtitle_media_id', 'text', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // One track per language of a video: a second one for the language replaces it.
    .addPrimaryKeyConstraint('media_subtitles_pk', ['media_id', 'language_code'])
    .execute();
  // Which videos a subtitle file serves, for when it goes.
  await db.schema.createIndex('media_subtitles_subtitle').on('media_subtitles').column('subtitle_media_id').execute();
}
