import { toJson, type DbOrTx } from '../../store/store.js';
import type { PollOption } from '../../store/schema-posts.js';
import type { PollRow } from './wire.js';

export async function findPollsByIds(db: DbOrTx, ids: readonly string[]): Promise<PollRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('polls').selectAll().where('id', 'in', ids).execute();
}

/** A poll of a new post: its options numbered from 1, no votes yet, ending `durationMinutes` after `createdAt`. */
export async function insertPoll(
  db: DbOrTx,
  p: { id: string; postId: string; labels: readonly string[]; durationMinutes: number; createdAt: Date; votes?: readonly number[] },
): Promise<PollRow> {
  const options: PollOption[] = p.labels.map((label, i) => ({ position: i + 1, label, votes: p.votes?.[i] ?? 0 }));
  const row: PollRow = {
    id: p.id,
    post_id: p.postId,
    options: toJson(options),
    duration_minutes: p.durationMinutes,
    end_datetime: new Date(p.createdAt.getTime() + p.durationMinutes * 60_000).toISOString(),
    created_at: p.createdAt.toISOString(),
  };
  await db.insertInto('polls').values(row).execute();
  return row;
}
