import { Type } from '@sinclair/typebox';
import type { PlatformContext } from '../context.js';
import type { Listener } from '../../http/server.js';
import { listParam, parseSelectionText } from '../../http/fields.js';
import { invalidParameter } from '../../http/params.js';
import { selectionParams } from '../expansions.js';
import { parsePage } from '../graph/query.js';
import { idParams, idString, listRequest, pageParams, query, userAuth } from '../graph/route-kit.js';
import { postExpansions } from '../posts/service.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse, ProblemSchema, writeResponse } from '../schemas.js';
import { PostSchema } from '../posts/schema.js';
import { viewOf } from '../view.js';
import { CLASSIFICATIONS, createNote, eligiblePosts, evaluateNote, MISLEADING_TAGS, NOTE_FIELDS, NOTE_PAGE, NOTE_TEXT_MAX, notesWritten, removeNote, type NoteInfoBody } from './service.js';

const POST_SELECTIONS = ['feed_size: small', 'feed_size: large'];

const writeAuth = userAuth('post.write', 'post.read', 'users.read');
const readAuth = userAuth('post.read', 'users.read');
const errors = Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 }));
const testMode = Type.Boolean({ description: 'Must be true: notes written through the API are test notes, not shown publicly.' });

const evaluateBody = Type.Object(
  { post_id: idString('The post the note is about.'), note_text: Type.String({ description: 'The text of the drafted note.' }) },
  { additionalProperties: false },
);
const evaluateResponse = { 200: Type.Object({ data: Type.Object({ claim_opinion_score: Type.Number() }), errors }), default: defaultErrorResponse };

const createBody = Type.Object(
  {
    test_mode: testMode,
    post_id: idString('The post the note is about.'),
    info: Type.Object(
      {
        text: Type.String({ description: `The note, 1 to ${NOTE_TEXT_MAX} characters, citing a source: it must contain a URL.` }),
        classification: Type.String({ description: `One of ${CLASSIFICATIONS.join(', ')}.` }),
        misleading_tags: Type.Array(Type.String(), { description: `Why the post misleads (at least one when it does; none when not): ${MISLEADING_TAGS.join(', ')}.` }),
        trustworthy_sources: Type.Boolean(),
        is_media_note: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const NoteSchema = Type.Object(
  {
    id: Type.String(),
    status: Type.Optional(Type.String()),
    info: Type.Optional(Type.Object({}, { additionalProperties: true })),
    scoring_status: Type.Optional(Type.Object({}, { additionalProperties: true })),
    test_result: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

/** Community notes (spec 000, Jul 8 and Sep 17, 2025): the note-writer interface. */
export async function noteRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  const evaluate = async (request: { body: { post_id: string; note_text: string } } & Parameters<typeof userCallerOf>[1]) => {
    const caller = userCallerOf(ctx, request);
    return { data: await evaluateNote(ctx, caller, viewOf(ctx.clock, caller), request.body) };
  };
  app.post(
    '/2/notes/evaluate',
    {
      config: { auth: writeAuth },
      schema: { operationId: 'evaluateCommunityNotes', summary: 'The claim-opinion score of a drafted community note', tags: ['Community Notes'], body: evaluateBody, response: evaluateResponse },
    },
    evaluate,
  );
  app.post(
    '/2/evaluate_note',
    {
      config: { auth: writeAuth },
      schema: { operationId: 'evaluateNote', summary: 'The same as POST /2/notes/evaluate (the path of the Sep 17, 2025 release)', tags: ['Community Notes'], body: evaluateBody, response: evaluateResponse },
    },
    evaluate,
  );

  app.post(
    '/2/notes',
    {
      config: { auth: writeAuth },
      schema: {
        operationId: 'createCommunityNotes',
        summary: 'Write a (test) community note on a post',
        tags: ['Community Notes'],
        body: createBody,
        response: { 201: Type.Object({ data: Type.Object({ id: Type.String() }), errors }), default: defaultErrorResponse },
      },
    },
    async (request, reply) => {
      const caller = userCallerOf(ctx, request);
      const body = request.body as { test_mode: boolean; post_id: string; info: NoteInfoBody };
      const data = await createNote(ctx, caller, viewOf(ctx.clock, caller), body);
      reply.code(201);
      return { data };
    },
  );

  app.delete(
    '/2/notes/:id',
    {
      config: { auth: writeAuth },
      schema: { operationId: 'deleteCommunityNotes', summary: 'Delete a community note you wrote', tags: ['Community Notes'], params: idParams('id'), response: { 200: writeResponse({ deleted: Type.Boolean() }), default: defaultErrorResponse } },
    },
    async (request) => ({ data: await removeNote(ctx, userCallerOf(ctx, request), request.params.id) }),
  );

  app.get(
    '/2/notes/search/notes_written',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'searchCommunityNotesWritten',
        summary: 'The community notes the authenticated writer wrote, newest first',
        tags: ['Community Notes'],
        querystring: query({ test_mode: testMode, ...pageParams(NOTE_PAGE), 'note.fields': listParam(NOTE_FIELDS, 'A comma separated list of note fields to display.') }),
        response: {
          200: Type.Object({ data: Type.Optional(Type.Array(NoteSchema)), errors, meta: Type.Object({ result_count: Type.Integer({ format: 'int32' }), next_token: Type.Optional(Type.String()) }) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const selected = parseSelectionText('note.fields', q['note.fields'], NOTE_FIELDS);
      return notesWritten(ctx, userCallerOf(ctx, request), { testMode: q.test_mode, selected, page: parsePage(q, NOTE_PAGE) });
    },
  );

  app.get(
    '/2/notes/search/posts_eligible_for_notes',
    {
      config: { auth: readAuth },
      schema: {
        operationId: 'searchEligiblePosts',
        summary: 'Posts the authenticated writer may write a community note on, newest first',
        tags: ['Community Notes'],
        querystring: query({
          test_mode: testMode,
          ...pageParams(NOTE_PAGE),
          post_selection: Type.Optional(Type.String({ description: 'feed_size: small (default) or feed_size: large.' })),
          ...selectionParams(postExpansions),
        }),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      const q = request.query;
      if (q.post_selection !== undefined && !POST_SELECTIONS.includes(q.post_selection)) {
        throw invalidParameter('post_selection', [q.post_selection], `The \`post_selection\` query parameter value [${q.post_selection}] is not one of [${POST_SELECTIONS.join(',')}]`);
      }
      return pageBody(await eligiblePosts(ctx, caller, viewOf(ctx.clock, caller), { testMode: q.test_mode, ...listRequest(q, NOTE_PAGE, postExpansions) }));
    },
  );
}
