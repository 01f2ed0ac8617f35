import type { UserCaller } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { page } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import { isUniqueViolation, toJson, type DbOrTx } from '../../store/store.js';
import { ProblemError, problems } from '../../http/problems.js';
import { tokenize } from '../../query/ast.js';
import { requireWriteAccess } from '../graph/access.js';
import type { ListRequest, PageRequest } from '../graph/query.js';
import { renderPosts, type PageResult } from '../graph/render.js';
import { requireVisiblePost, versionIds } from '../graph/visibility.js';
import type { View } from '../view.js';
import {
  addNoteWriter, deleteNote, findNote, findNoteOn, insertNote, isNoteWriter, notesWrittenBy, postsEligibleForNotes, removeNoteWriter, type CommunityNoteRow,
} from './store.js';

/**
 * Community notes (spec 000 release history): the operations arrive on Jul 8, 2025 and
 * POST /2/evaluate_note on Sep 17, 2025 (POST /2/notes/evaluate is the 2.167 description's name
 * for it). They are the note-writer interface: only users enrolled as note writers (a user
 * attribute the admin interface sets; a demo user is one) may use them, and for now every
 * request is in test mode (test_mode=true), as on the public platform: test notes are not public.
 */
export const NOTES_SINCE = '2025-07-08';
export const EVALUATE_SINCE = '2025-09-17';
export const CLASSIFICATIONS = ['misinformed_or_potentially_misleading', 'not_misleading'] as const;
export const MISLEADING_TAGS = [
  'disputed_claim_as_fact', 'factual_error', 'manipulated_media', 'misinterpreted_satire', 'missing_important_context', 'other', 'outdated_information',
] as const;
export const NOTE_TEXT_MAX = 280;
export const NOTE_PAGE = { min: 1, max: 100, default: 10 };
const URL_IN_TEXT = /https?:\/\/\S+/;

export const NOTE_FIELDS = ['id', 'info', 'scoring_status', 'status', 'test_result'] as const;
const NOTE_DEFAULTS: readonly string[] = ['id', 'info', 'status'];
/** Test notes are never shown to raters, so they stay where every new note starts. */
const NEW_NOTE_STATUS = 'needs_more_ratings';

const bad = (name: string, value: unknown, message: string) =>
  invalidParameter(name, value === undefined ? [] : [typeof value === 'string' ? value : JSON.stringify(value)], message);

function requireReleased(ctx: PlatformContext, since: string, what: string): void {
  if (ctx.clock.now().toISOString().slice(0, 10) >= since) return;
  throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `${what} arrives with the release of ${since}.`));
}

async function requireNoteWriter(ctx: PlatformContext, caller: UserCaller): Promise<void> {
  if (await isNoteWriter(ctx.store.db, caller.user.id)) return;
  throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', 'Only users enrolled as community note writers can use the community notes endpoints.'));
}

function requireTestMode(value: unknown, where: 'query parameter' | 'body field'): void {
  if (value === true) return;
  throw bad('test_mode', String(value), `The \`test_mode\` ${where} must be true: notes written through the API are test notes for now`);
}

/** Enrols a user as a note writer, or withdraws it (the admin interface and the demo seed). */
export async function setNoteWriter(ctx: Pick<PlatformContext, 'clock' | 'store'>, userId: string, writer: boolean, db: DbOrTx = ctx.store.db): Promise<void> {
  if (writer) await addNoteWriter(db, userId, ctx.clock.now().toISOString());
  else await removeNoteWriter(db, userId);
}

const OPINION_WORDS = new Set([
  'i', 'me', 'my', 'think', 'believe', 'feel', 'opinion', 'should', 'obviously', 'clearly', 'terrible', 'awful', 'great', 'best', 'worst',
  'stupid', 'amazing', 'love', 'hate', 'probably', 'maybe', 'disgusting', 'ridiculous', 'wonderful',
]);

/**
 * How much a note states verifiable claims rather than opinions, in [0, 1], computed only from
 * the note's text and the post's: a cited source (+0.25), figures (up to +0.1), words shared with
 * the post (up to +0.2), from a base of 0.35; each opinion marker (first person, judgement words,
 * exclamation marks) takes 0.1 off, at most 0.4. The same note on the same post always scores the same.
 */
export function claimOpinionScore(noteText: string, postText: string): number {
  const words = tokenize(noteText);
  const postWords = new Set(tokenize(postText).filter((w) => w.length >= 3));
  const shared = new Set(words.filter((w) => postWords.has(w))).size;
  const overlap = postWords.size === 0 ? 0 : Math.min(1, shared / Math.min(postWords.size, 5));
  const figures = Math.min(3, words.filter((w) => /^\d+$/.test(w)).length);
  const opinions = Math.min(4, words.filter((w) => OPINION_WORDS.has(w)).length + (noteText.match(/!/g)?.length ?? 0));
  const score = 0.35 + (URL_IN_TEXT.test(noteText) ? 0.25 : 0) + (0.1 * figures) / 3 + 0.2 * overlap - 0.1 * opinions;
  return Math.round(Math.min(1, Math.max(0, score)) * 10_000) / 10_000;
}

const bucketOf = (score: number) => (score >= 0.6 ? 'High' : score >= 0.4 ? 'Medium' : 'Low');

/** POST /2/evaluate_note and POST /2/notes/evaluate: the claim_opinion_score of a drafted note. */
export async function evaluateNote(ctx: PlatformContext, caller: UserCaller, view: View, body: { post_id: string; note_text: string }): Promise<{ claim_opinion_score: number }> {
  requireReleased(ctx, EVALUATE_SINCE, 'Evaluating community notes');
  await requireNoteWriter(ctx, caller);
  if (body.note_text.trim().length === 0) throw bad('note_text', body.note_text, 'The `note_text` body field must not be empty');
  const post = await requireVisiblePost(ctx, ctx.store.db, view, body.post_id, 'post_id');
  return { claim_opinion_score: claimOpinionScore(body.note_text, post.text) };
}

export interface NoteInfoBody {
  text: string;
  classification: string;
  misleading_tags: string[];
  trustworthy_sources: boolean;
  is_media_note?: boolean;
}

/** The info object's rules, each refusal naming the field. */
function checkInfo(info: NoteInfoBody): void {
  const length = [...info.text].length;
  if (length < 1 || length > NOTE_TEXT_MAX) throw bad('info.text', info.text, `The \`info.text\` body field must be 1 to ${NOTE_TEXT_MAX} characters long (it is ${length})`);
  if (!URL_IN_TEXT.test(info.text)) throw bad('info.text', info.text, 'The `info.text` body field must contain a URL (http:// or https://) citing a source');
  if (!(CLASSIFICATIONS as readonly string[]).includes(info.classification)) {
    throw bad('info.classification', info.classification, `The \`info.classification\` body field value [${info.classification}] is not one of [${CLASSIFICATIONS.join(',')}]`);
  }
  const unknown = info.misleading_tags.filter((t) => !(MISLEADING_TAGS as readonly string[]).includes(t));
  if (unknown.length > 0) {
    throw bad('info.misleading_tags', unknown[0], `The \`info.misleading_tags\` body field value [${unknown[0]}] is not one of [${MISLEADING_TAGS.join(',')}]`);
  }
  if (new Set(info.misleading_tags).size !== info.misleading_tags.length) throw bad('info.misleading_tags', info.misleading_tags, 'The `info.misleading_tags` body field lists a tag twice');
  if (info.classification === 'misinformed_or_potentially_misleading' && info.misleading_tags.length === 0) {
    throw bad('info.misleading_tags', info.misleading_tags, 'The `info.misleading_tags` body field must name at least one tag when the classification is misinformed_or_potentially_misleading');
  }
  if (info.classification === 'not_misleading' && info.misleading_tags.length > 0) {
    throw bad('info.misleading_tags', info.misleading_tags, 'The `info.misleading_tags` body field must be empty when the classification is not_misleading');
  }
}

/** POST /2/notes: a test note on a post the writer can see, one per post and writer. */
export async function createNote(ctx: PlatformContext, caller: UserCaller, view: View, body: { test_mode: boolean; post_id: string; info: NoteInfoBody }): Promise<{ id: string }> {
  requireReleased(ctx, NOTES_SINCE, 'Community notes');
  requireWriteAccess(caller);
  await requireNoteWriter(ctx, caller);
  requireTestMode(body.test_mode, 'body field');
  checkInfo(body.info);
  const duplicate = () => bad('post_id', body.post_id, `You have already written a note on the post ${body.post_id}: one note per post`);
  try {
    return await ctx.store.db.transaction().execute(async (tx) => {
      const post = await requireVisiblePost(ctx, tx, view, body.post_id, 'post_id');
      if (await findNoteOn(tx, caller.user.id, versionIds(post))) throw duplicate();
      const row: CommunityNoteRow = {
        id: ctx.ids.next(),
        author_id: caller.user.id,
        app_id: caller.app.id,
        post_id: post.id,
        text: body.info.text,
        classification: body.info.classification,
        misleading_tags: toJson(body.info.misleading_tags),
        trustworthy_sources: body.info.trustworthy_sources ? 1 : 0,
        is_media_note: body.info.is_media_note ? 1 : 0,
        test_mode: 1,
        created_at: ctx.clock.now().toISOString(),
      };
      await insertNote(tx, row);
      return { id: row.id };
    });
  } catch (err) {
    // Two requests racing for the same post: the unique constraint answers the second.
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}

/** DELETE /2/notes/{id}: the writer's own note. */
export async function removeNote(ctx: PlatformContext, caller: UserCaller, id: string): Promise<{ deleted: boolean }> {
  requireReleased(ctx, NOTES_SINCE, 'Community notes');
  requireWriteAccess(caller);
  await requireNoteWriter(ctx, caller);
  const note = await findNote(ctx.store.db, id);
  if (!note) throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find note with id: [${id}].`));
  if (note.author_id !== caller.user.id) throw new ProblemError(403, problems.aboutBlank(403, 'Forbidden', 'You can only delete notes you wrote.'));
  return { deleted: await deleteNote(ctx.store.db, id) };
}

/** The Note object (shared/reference S167 Note), with note.fields; defaults id, info and status. */
async function noteObject(ctx: PlatformContext, note: CommunityNoteRow, selected: ReadonlySet<string>): Promise<Record<string, unknown>> {
  const want = (name: string) => selected.has(name) || NOTE_DEFAULTS.includes(name);
  const out: Record<string, unknown> = { id: note.id };
  if (want('info')) {
    out.info = {
      text: note.text,
      classification: note.classification,
      misleading_tags: JSON.parse(note.misleading_tags),
      post_id: note.post_id,
      trustworthy_sources: note.trustworthy_sources === 1,
      rating_status: NEW_NOTE_STATUS,
    };
  }
  if (want('status')) out.status = NEW_NOTE_STATUS;
  // Test notes are not shown to raters, so there are no ratings to count.
  if (want('scoring_status')) out.scoring_status = { has_access: true, rating_counts_per_model: [] };
  if (want('test_result')) {
    const post = await ctx.store.db.selectFrom('posts').select('text').where('id', '=', note.post_id).executeTakeFirst();
    const score = claimOpinionScore(note.text, post?.text ?? '');
    out.test_result = {
      evaluation_outcome: [
        { evaluator_type: 'claim_opinion', evaluator_score_bucket: bucketOf(score) },
        { evaluator_type: 'url_validity', evaluator_score_bucket: URL_IN_TEXT.test(note.text) ? 'High' : 'Low' },
      ],
    };
  }
  return out;
}

/** GET /2/notes/search/notes_written: the caller's test notes, newest first. */
export async function notesWritten(ctx: PlatformContext, caller: UserCaller, { testMode, selected, page: request }: NotesWrittenRequest): Promise<{ data?: unknown[]; meta: { result_count: number; next_token?: string } }> {
  requireReleased(ctx, NOTES_SINCE, 'Community notes');
  await requireNoteWriter(ctx, caller);
  requireTestMode(testMode, 'query parameter');
  const rows = await notesWrittenBy(ctx.store.db, caller.user.id, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (n) => n.id);
  const data = [];
  for (const note of items) data.push(await noteObject(ctx, note, selected));
  return { data: data.length > 0 ? data : undefined, meta };
}

/** The notes a writer wrote, as its route parsed the request: test_mode as sent, note.fields and the page. */
export interface NotesWrittenRequest {
  testMode: unknown;
  selected: ReadonlySet<string>;
  page: PageRequest;
}

/** The posts eligible for notes, as its route parsed the request: test_mode as sent, the selection and the page. */
export interface EligiblePostsRequest extends ListRequest {
  testMode: unknown;
}

/** GET /2/notes/search/posts_eligible_for_notes: posts the caller may still note, newest first, with the post lookup's fields and expansions. */
export async function eligiblePosts(ctx: PlatformContext, caller: UserCaller, view: View, { testMode, selection, page: request }: EligiblePostsRequest): Promise<PageResult> {
  requireReleased(ctx, NOTES_SINCE, 'Community notes');
  await requireNoteWriter(ctx, caller);
  requireTestMode(testMode, 'query parameter');
  const rows = await postsEligibleForNotes(ctx.store.db, caller.user.id, request.maxResults + 1, request.after);
  const { items, meta } = page(rows, request.maxResults, (p) => p.id, { ids: (p) => p.id });
  return renderPosts(ctx, view, selection, items, meta);
}
