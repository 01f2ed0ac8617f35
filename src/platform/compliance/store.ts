import type { ComplianceJobStatus, ComplianceJobTable, ComplianceJobType } from '../../store/schema-compliance-misc.js';
import type { DbOrTx } from '../../store/store.js';

export type ComplianceJobRow = ComplianceJobTable;

export async function insertComplianceJob(db: DbOrTx, row: ComplianceJobRow): Promise<void> {
  await db.insertInto('compliance_jobs').values(row).execute();
}

export async function findComplianceJob(db: DbOrTx, appId: string, id: string): Promise<ComplianceJobRow | undefined> {
  return db.selectFrom('compliance_jobs').selectAll().where('app_id', '=', appId).where('id', '=', id).executeTakeFirst();
}

/** The app's jobs of the given types, newest first. */
export async function listComplianceJobs(db: DbOrTx, appId: string, types: readonly ComplianceJobType[]): Promise<ComplianceJobRow[]> {
  return db.selectFrom('compliance_jobs').selectAll().where('app_id', '=', appId).where('type', 'in', types).orderBy('id', 'desc').execute();
}

export async function findJobByToken(db: DbOrTx, column: 'upload_token' | 'download_token', token: string): Promise<ComplianceJobRow | undefined> {
  return db.selectFrom('compliance_jobs').selectAll().where(column, '=', token).executeTakeFirst();
}

/** Moves a job on only from the status it was read in, so two readers never both finish it. */
export async function moveJob(db: DbOrTx, id: string, from: ComplianceJobStatus, set: Partial<ComplianceJobRow>): Promise<boolean> {
  const result = await db.updateTable('compliance_jobs').set(set).where('id', '=', id).where('status', '=', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Of `ids`, the posts there are (any state), with their author's protection. */
export async function postsForCompliance(db: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('posts')
    .leftJoin('users', 'users.id', 'posts.author_id')
    .select(['posts.id', 'posts.created_at', 'posts.deleted_at', 'posts.author_id', 'users.protected as author_protected'])
    .where('posts.id', 'in', ids)
    .execute();
}

export async function usersForCompliance(db: DbOrTx, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('users').select(['id', 'created_at', 'protected']).where('id', 'in', ids).execute();
}

/** When each of `userIds` was last made protected (the profile.update.protected entries of the log). */
export async function protectedSince(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('events')
    .select(['subject', 'created_at'])
    .where('type', '=', 'profile.update.protected')
    .where('subject', 'in', userIds)
    .orderBy('seq')
    .execute();
  return new Map(rows.map((r) => [r.subject, r.created_at]));
}
