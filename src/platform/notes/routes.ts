import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import type { Listener } from '../../http/server.js';
import { fieldsParam, idParams, idString, pageParams, query, userAuth } from '../graph/route-kit.js';
import { userCallerOf } from '../route-auth.js';
import { defaultErrorResponse, pageBody, pageResponse, PostSchema, ProblemSchema, selectionQuery, writeResponse } from '../schemas.js';
import { viewOf } from '../view.js';
import { CLASSIFICATIONS, createNote, eligiblePosts, evaluateNote, MISLEADING_TAGS, NOTE_PAGE, NOTE_TEXT_MAX, notesWritten, removeNote, type NoteInfoBody } from './service.js';

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
export async function noteRoutes(app: Listener, ctx: AppContext): Promise<void> {
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
        querystring: query({ test_mode: testMode, ...pageParams(NOTE_PAGE), 'note.fields': fieldsParam('note field names: id, info, scoring_status, status, test_result') }),
        response: {
          200: Type.Object({ data: Type.Optional(Type.Array(NoteSchema)), errors, meta: Type.Object({ result_count: Type.Integer({ format: 'int32' }), next_token: Type.Optional(Type.String()) }) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => notesWritten(ctx, userCallerOf(ctx, request), request.query),
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
          ...selectionQuery,
        }),
        response: { 200: pageResponse(PostSchema), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const caller = userCallerOf(ctx, request);
      return pageBody(await eligiblePosts(ctx, caller, viewOf(ctx.clock, caller), request.query));
    },
  );
}
