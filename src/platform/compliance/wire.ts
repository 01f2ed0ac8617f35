import type { ComplianceJobRow } from './store.js';

/**
 * The ComplianceJob object (shared/reference S167). Every field is shown unless
 * `compliance_job.fields` names some: a client needs upload_url at once, as the public platform
 * answers it without being asked.
 */
export const COMPLIANCE_JOB_FIELDS = [
  'created_at', 'download_expires_at', 'download_url', 'id', 'name', 'resumable', 'status', 'type', 'upload_expires_at', 'upload_url',
] as const;

export interface JobUrls {
  upload: string;
  download: string;
}

/** The secret URLs of a job, on the address the client called. */
export function jobUrls(baseUrl: string, job: ComplianceJobRow): JobUrls {
  return { upload: `${baseUrl}/compliance/uploads/${job.upload_token}`, download: `${baseUrl}/compliance/results/${job.download_token}` };
}

export function complianceJobWire(job: ComplianceJobRow, urls: JobUrls, selected?: ReadonlySet<string>): Record<string, unknown> {
  const all: Record<string, unknown> = {
    id: job.id,
    type: job.type,
    ...(job.name !== null ? { name: job.name } : {}),
    resumable: job.resumable === 1,
    status: job.status,
    created_at: job.created_at,
    upload_url: urls.upload,
    upload_expires_at: job.upload_expires_at,
    download_url: urls.download,
    download_expires_at: job.download_expires_at,
  };
  if (!selected) return all;
  return Object.fromEntries(Object.entries(all).filter(([name]) => name === 'id' || selected.has(name)));
}
