import { sql, type Selectable } from 'kysely';
import type { CommunityNoteTable } from '../../store/schema-news-notes-usage.js';
import type { DbOrTx } from '../../store/store.js';
import type { PostRow } from '../posts/wire.js';
import { READABLE } from '../visibility/rule.js';
import { visibilitySql } from '../visibility/sql.js';

export type CommunityNoteRow = Selectable<CommunityNoteTable>;

export async function isNoteWriter(db: DbOrTx, userId: string): Promise<boolean> {
  return (await db.selectFrom('note_writers').select('user_id').where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

export async function addNoteWriter(db: DbOrTx, userId: string, at: string): Promise<void> {
  await db.insertInto('note_writers').values({ user_id: userId, created_at: at }).onConflict((oc) => oc.column('user_id').doNothing()).execute();
}

export async function removeNoteWriter(db: DbOrTx, userId: string): Promise<void> {
  await db.deleteFrom('note_writers').where('user_id', '=', userId).execute();
}

export async function insertNote(db: DbOrTx, row: CommunityNoteRow): Promise<void> {
  await db.insertInto('community_notes').values(row).execute();
}

export async function findNote(db: DbOrTx, id: string): Promise<CommunityNoteRow | undefined> {
  return db.selectFrom('community_notes').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findNoteOn(db: DbOrTx, authorId: string, postIds: readonly string[]): Promise<CommunityNoteRow | undefined> {
  return db.selectFrom('community_notes').selectAll().where('author_id', '=', authorId).where('post_id', 'in', [...postIds]).executeTakeFirst();
}

export async function deleteNote(db: DbOrTx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('community_notes').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The writer's notes, newest first, after the id `after`. */
export async function notesWrittenBy(db: DbOrTx, authorId: string, limit: number, after?: string): Promise<CommunityNoteRow[]> {
  let q = db.selectFrom('community_notes').selectAll().where('author_id', '=', authorId).where('test_mode', '=', 1);
  if (after) q = q.where('id', '<', after);
  return q.orderBy('id', 'desc').limit(limit).execute();
}

/**
 * Posts a writer may note: live latest versions by public authors other than the writer, not
 * reposts and not promoted-only, that the writer has not noted yet; newest first.
 */
export async function postsEligibleForNotes(db: DbOrTx, writerId: string, limit: number, after?: string): Promise<PostRow[]> {
  let q = db
    .selectFrom('posts')
    .selectAll('posts')
    .where('posts.deleted_at', 'is', null)
    .where('posts.superseded_by_id', 'is', null)
    .where('posts.nullcast', '=', 0)
    .where('posts.reposted_post_id', 'is', null)
    .where('posts.author_id', '<>', writerId)
    .where(visibilitySql(READABLE, sql.ref('posts.author_id'), undefined))
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('community_notes as n').select(sql.lit(1).as('one')).whereRef('n.post_id', '=', 'posts.id').where('n.author_id', '=', writerId))),
    );
  if (after) q = q.where('posts.id', '<', after);
  return q.orderBy('posts.id', 'desc').limit(limit).execute();
}
