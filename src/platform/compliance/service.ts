import type { PlatformContext } from '../context.js';
import { ID_PATTERN, invalidParameter, invalidValue } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import { secretToken } from '../../store/ids.js';
import type { ComplianceJobStatus, ComplianceJobType } from '../../store/schema-compliance-misc.js';
import { findComplianceJob, findJobByToken, insertComplianceJob, listComplianceJobs, moveJob, postsForCompliance, protectedSince, usersForCompliance, type ComplianceJobRow } from './store.js';

/**
 * Batch compliance (shared/reference S167 /2/compliance/jobs): an app creates a job, PUTs a file
 * of ids (one a line) to its upload_url before upload_expires_at, and reads at download_url one
 * JSON object per id that needs action in its own store (deleted, protected...). Processing takes
 * PROCESSING_MS of the injected clock after the upload; the job is moved on when it is next read,
 * so moving the admin clock moves jobs as it moves every other rule about time.
 */

/** The public platform's windows: 15 minutes to upload, a week to download (both from creation). */
export const UPLOAD_WINDOW_MS = 15 * 60 * 1000;
export const DOWNLOAD_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** How long the ids of an upload take to check. */
export const PROCESSING_MS = 5 * 1000;
/** The largest file of ids an upload may carry. */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

/** 'posts' is Plaza's name of the public platform's 'tweets'; a job answers with the name it was made with. */
export const JOB_TYPES = ['tweets', 'posts', 'users'] as const;
export const JOB_STATUSES = ['created', 'in_progress', 'failed', 'complete', 'expired'] as const;
const SAME_TYPE: Record<ComplianceJobType, ComplianceJobType[]> = { tweets: ['tweets', 'posts'], posts: ['tweets', 'posts'], users: ['users'] };

export interface NewComplianceJob {
  type: ComplianceJobType;
  name?: string;
  resumable?: boolean;
}

export async function createComplianceJob(ctx: PlatformContext, appId: string, body: NewComplianceJob): Promise<ComplianceJobRow> {
  const now = ctx.clock.now();
  const job: ComplianceJobRow = {
    id: ctx.ids.next(),
    app_id: appId,
    type: body.type,
    name: body.name ?? null,
    resumable: body.resumable ? 1 : 0,
    status: 'created',
    upload_token: secretToken(),
    download_token: secretToken(),
    created_at: now.toISOString(),
    upload_expires_at: new Date(now.getTime() + UPLOAD_WINDOW_MS).toISOString(),
    download_expires_at: new Date(now.getTime() + DOWNLOAD_WINDOW_MS).toISOString(),
    uploaded_at: null,
    completed_at: null,
    uploaded_ids: null,
    result: null,
  };
  await insertComplianceJob(ctx.store.db, job);
  return job;
}

/** GET /2/compliance/jobs/{id}: only the app's own jobs; another app's is not found. */
export async function lookupComplianceJob(ctx: PlatformContext, appId: string, id: string): Promise<ComplianceJobRow> {
  const job = await findComplianceJob(ctx.store.db, appId, id);
  if (!job) throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find compliance job with id: [${id}].`));
  return advanceJob(ctx, job);
}

/** GET /2/compliance/jobs: the app's jobs of a type, newest first, optionally of one status. */
export async function listJobs(ctx: PlatformContext, appId: string, type: ComplianceJobType, status?: ComplianceJobStatus): Promise<ComplianceJobRow[]> {
  const jobs = await Promise.all((await listComplianceJobs(ctx.store.db, appId, SAME_TYPE[type])).map((j) => advanceJob(ctx, j)));
  return status ? jobs.filter((j) => j.status === status) : jobs;
}

/** Where the clock has put the job: upload window missed, processing done, download window over. */
async function advanceJob(ctx: PlatformContext, job: ComplianceJobRow): Promise<ComplianceJobRow> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  if (job.status === 'created' && at >= job.upload_expires_at) return moved(ctx, job, { status: 'expired' });
  if (job.status === 'complete' && at >= job.download_expires_at) return moved(ctx, job, { status: 'expired' });
  if (job.status === 'in_progress' && job.uploaded_at && now.getTime() >= Date.parse(job.uploaded_at) + PROCESSING_MS) {
    const ids = (job.uploaded_ids ?? '').split('\n').filter((l) => l.length > 0);
    const done = new Date(Date.parse(job.uploaded_at) + PROCESSING_MS).toISOString();
    const lines = job.type === 'users' ? await userActions(ctx, ids) : await postActions(ctx, ids);
    const set = { status: 'complete' as const, completed_at: done, result: lines.map((l) => JSON.stringify(l)).join('\n') + (lines.length ? '\n' : '') };
    const finished = await moved(ctx, job, set);
    // A job completed after its download window is already over.
    return at >= finished.download_expires_at ? moved(ctx, finished, { status: 'expired' }) : finished;
  }
  return job;
}

async function moved(ctx: PlatformContext, job: ComplianceJobRow, set: Partial<ComplianceJobRow>): Promise<ComplianceJobRow> {
  if (await moveJob(ctx.store.db, job.id, job.status, set)) return { ...job, ...set };
  // Another reader moved it first: what it wrote is the truth.
  return (await findComplianceJob(ctx.store.db, job.app_id, job.id)) ?? job;
}

/** The public format of a batch compliance answer line. */
interface ComplianceAction {
  id: string;
  action: 'delete';
  created_at: string;
  redacted_at: string | null;
  reason: 'deleted' | 'protected';
}

/** The creation time a platform id carries (its first 41 bits: milliseconds since the platform's epoch). */
function idTime(id: string): string {
  const ms = Number(BigInt(id) >> 22n) + 1288834974657;
  return new Date(ms).toISOString();
}

/** Posts deleted (or never there) and posts of protected authors must be removed from the app's copy. */
async function postActions(ctx: PlatformContext, ids: readonly string[]): Promise<ComplianceAction[]> {
  const out: ComplianceAction[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = new Map((await postsForCompliance(ctx.store.db, chunk)).map((r) => [r.id, r]));
    const protectedAt = await protectedSince(ctx.store.db, [...new Set([...rows.values()].filter((r) => r.author_protected === 1).map((r) => r.author_id))]);
    for (const id of chunk) {
      const post = rows.get(id);
      if (!post || post.author_protected === null) out.push({ id, action: 'delete', created_at: post?.created_at ?? idTime(id), redacted_at: null, reason: 'deleted' });
      else if (post.deleted_at) out.push({ id, action: 'delete', created_at: post.created_at, redacted_at: post.deleted_at, reason: 'deleted' });
      else if (post.author_protected === 1) out.push({ id, action: 'delete', created_at: post.created_at, redacted_at: protectedAt.get(post.author_id) ?? null, reason: 'protected' });
    }
  }
  return out;
}

async function userActions(ctx: PlatformContext, ids: readonly string[]): Promise<ComplianceAction[]> {
  const out: ComplianceAction[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = new Map((await usersForCompliance(ctx.store.db, chunk)).map((r) => [r.id, r]));
    const protectedAt = await protectedSince(ctx.store.db, [...rows.values()].filter((r) => r.protected === 1).map((r) => r.id));
    for (const id of chunk) {
      const user = rows.get(id);
      if (!user) out.push({ id, action: 'delete', created_at: idTime(id), redacted_at: null, reason: 'deleted' });
      else if (user.protected === 1) out.push({ id, action: 'delete', created_at: user.created_at, redacted_at: protectedAt.get(id) ?? null, reason: 'protected' });
    }
  }
  return out;
}

function notFound(): ProblemError {
  return new ProblemError(404, problems.aboutBlank(404, 'Not Found', 'No compliance job has this URL.'));
}

/** PUT to upload_url: the ids, one a line, once, while the job is created and the upload window open. */
export async function uploadJobIds(ctx: PlatformContext, token: string, body: Buffer): Promise<void> {
  const found = await findJobByToken(ctx.store.db, 'upload_token', token);
  if (!found) throw notFound();
  const job = await advanceJob(ctx, found);
  if (job.status === 'expired') throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `The upload URL of compliance job ${job.id} expired at ${job.upload_expires_at}.`));
  if (job.status !== 'created') throw new ProblemError(409, problems.conflict(`Compliance job ${job.id} already has its ids (status ${job.status}).`));
  const lines = body.toString('utf8').split(/\r?\n/).map((l) => l.trim());
  const ids: string[] = [];
  for (const [n, line] of lines.entries()) {
    if (line.length === 0) continue;
    if (!ID_PATTERN.test(line)) throw invalidParameter('body', [line.slice(0, 40)], `Line ${n + 1} of the upload is not a platform id (^[0-9]{1,19}$): one id a line`);
    ids.push(line);
  }
  if (ids.length === 0) throw invalidValue('body', undefined, 'The upload holds no ids: send one id a line');
  const unique = [...new Set(ids)];
  if (!(await moveJob(ctx.store.db, job.id, 'created', { status: 'in_progress', uploaded_at: ctx.clock.now().toISOString(), uploaded_ids: unique.join('\n') }))) {
    throw new ProblemError(409, problems.conflict(`Compliance job ${job.id} already has its ids.`));
  }
}

/** GET of download_url: the answer once complete, until download_expires_at. */
export async function jobResult(ctx: PlatformContext, token: string): Promise<string> {
  const found = await findJobByToken(ctx.store.db, 'download_token', token);
  if (!found) throw notFound();
  const job = await advanceJob(ctx, found);
  if (job.status === 'complete') return job.result ?? '';
  if (job.status === 'expired' && job.completed_at) throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', `The download URL of compliance job ${job.id} expired at ${job.download_expires_at}.`));
  throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Compliance job ${job.id} has no result yet (status ${job.status}).`));
}
