import type { AdsUserListColumns } from '../../store/schema-ads-audiences.js';

/**
 * Whether an audience or a do-not-reach list can be used (spec 001 "Do-not-reach list";
 * shared/reference/ads.md §5): PROCESSING for a while after its users change, by the injected
 * clock; TOO_SMALL while it matches fewer of Plaza's users than the minimum.
 */
export const PROCESSING_MS = 60 * 60 * 1000;
/**
 * The public platform's minimum is 100 matched users; a self-hosted Plaza (the demo workspace
 * has five users) could never reach it, so Plaza's is 3: still more than one, so an audience never
 * singles a person out.
 */
export const MIN_AUDIENCE_SIZE = 3;

export type NotTargetableReason = 'PROCESSING' | 'TOO_SMALL';

export function reasonsNotTargetable(list: Pick<AdsUserListColumns, 'processing_until' | 'deleted'>, size: number, now: Date): NotTargetableReason[] {
  if (list.deleted === 1) return [];
  const reasons: NotTargetableReason[] = [];
  if (list.processing_until !== null && now.toISOString() < list.processing_until) reasons.push('PROCESSING');
  if (size < MIN_AUDIENCE_SIZE) reasons.push('TOO_SMALL');
  return reasons;
}

export function processingUntil(now: Date): string {
  return new Date(now.getTime() + PROCESSING_MS).toISOString();
}
