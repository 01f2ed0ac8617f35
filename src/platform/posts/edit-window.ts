import { fromJson } from '../../store/store.js';

/**
 * Spec 000 rule 2, "Post creation and editing rules": a post may be edited while it is at most
 * one hour old (the hour runs from its first version), five times at most. One place for the
 * refusal of an edit (rules.ts) and for what edit_controls shows (wire.ts).
 */
export const EDIT_WINDOW_MS = 60 * 60 * 1000;
export const EDITS_ALLOWED = 5;

/** A post row's edit_controls column. */
export interface EditControls {
  edits_remaining: number;
  /** The first version's created_at plus one hour. */
  editable_until: string;
}

export const editControlsOf = (p: { edit_controls: string }): EditControls => fromJson<EditControls>(p.edit_controls)!;

/** The controls of a new post created at `createdAt`. */
export const newEditControls = (createdAt: Date): EditControls => ({ edits_remaining: EDITS_ALLOWED, editable_until: new Date(createdAt.getTime() + EDIT_WINDOW_MS).toISOString() });

/** "At most one hour old": at editable_until itself the post may still be edited, a millisecond later not. */
export const withinEditWindow = (controls: EditControls, now: Date): boolean => now.getTime() <= Date.parse(controls.editable_until);

/**
 * edit_controls.is_edit_eligible: whether the post could be edited when it was published, which
 * time does not change (as on the public platform). Reposts and posts with a poll never can.
 */
export const isEditEligible = (p: { reposted_post_id: string | null; poll_ids: string }): boolean => p.reposted_post_id === null && p.poll_ids === '[]';
