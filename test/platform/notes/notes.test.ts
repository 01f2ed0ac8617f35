import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { claimOpinionScore, setNoteWriter } from '../../../src/platform/notes/service.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

/** Community notes (spec 000 release history, Jul 8 and Sep 17, 2025): the note-writer interface. */

const NOW = new Date('2026-05-01T12:00:00.000Z');
const clock = new ManualClock(NOW);
let plaza: TestPlaza;
let g: Fixtures;

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  g = fixtures(plaza);
});

const sample = () => plaza.creds.sample.post_ids; // [withMedia (ada), reply (chen), quote (dana), announcement (plazanews), private (bruno), ...]
const note = (postId: string, info: Record<string, unknown> = {}) => ({
  test_mode: true,
  post_id: postId,
  info: { text: 'The launch date is on the project page https://example.com/launch', classification: 'not_misleading', misleading_tags: [], trustworthy_sources: true, ...info },
});
const write = async (username: string, body: unknown) => g.send('POST', '/2/notes', { auth: await g.enterpriseAs(username), body });
const named = (res: { body: any; text: string }, parameter: string) => assert.ok(JSON.stringify(res.body.errors ?? res.body).includes(parameter), `${parameter} named in ${res.text}`);

test('POST /2/evaluate_note and POST /2/notes/evaluate: a claim_opinion_score in [0, 1], computed deterministically from the note text and the post', async () => {
  const auth = await g.enterpriseAs('dana');
  const factual = { post_id: sample()[3], note_text: 'Plaza went live on 2026-05-01 according to the launch page https://example.com/plaza' };
  const opinion = { post_id: sample()[3], note_text: 'I think this is obviously terrible and I hate it!' };
  const a = await g.send('POST', '/2/evaluate_note', { auth, body: factual });
  assert.equal(a.status, 200, a.text);
  const score = a.body.data.claim_opinion_score;
  assert.ok(typeof score === 'number' && score >= 0 && score <= 1, String(score));
  const b = await g.send('POST', '/2/notes/evaluate', { auth, body: factual });
  assert.deepEqual(b.body, a.body, 'the same note on the same post scores the same, on either path');
  const post = await g.postRow(sample()[3]);
  assert.equal(score, claimOpinionScore(factual.note_text, post.text));
  const o = await g.send('POST', '/2/notes/evaluate', { auth, body: opinion });
  assert.ok(o.body.data.claim_opinion_score < score, 'opinions score lower than sourced claims');

  assert.equal((await g.send('POST', '/2/notes/evaluate', { auth: await g.enterpriseAs('ada'), body: factual })).status, 403, 'only note writers');
  assert.equal((await g.send('POST', '/2/notes/evaluate', { auth: g.appAuth, body: factual })).status, 403, 'user context only');
  const missing = await g.send('POST', '/2/notes/evaluate', { auth, body: { ...factual, post_id: '1234567890123' } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.parameter, 'post_id');
  for (const [body, parameter] of [[{ post_id: 'x', note_text: 'a' }, 'post_id'], [{ post_id: sample()[3] }, 'note_text'], [{ ...factual, extra: 1 }, 'extra']] as const) {
    const res = await g.send('POST', '/2/notes/evaluate', { auth, body });
    assert.equal(res.status, 400, res.text);
    named(res, parameter);
  }
});

test('POST /2/notes: 201 {data:{id}} for a note writer in test mode; the text must contain a URL; classification and misleading_tags from the reference enums; one note per post', async () => {
  const created = await write('dana', note(sample()[0]));
  assert.equal(created.status, 201, created.text);
  assert.match(created.body.data.id, /^[0-9]{1,19}$/);
  const again = await write('dana', note(sample()[0], { text: 'Another source https://example.org' }));
  assert.equal(again.status, 400, 'one note per post and writer');
  named(again, 'post_id');

  const target = sample()[3];
  const cases: Array<[unknown, string]> = [
    [note(target, { text: 'No source at all' }), 'info.text'],
    [note(target, { text: `https://example.com ${'x'.repeat(280)}` }), 'info.text'],
    [note(target, { classification: 'wrong' }), 'info.classification'],
    [note(target, { classification: 'misinformed_or_potentially_misleading', misleading_tags: [] }), 'info.misleading_tags'],
    [note(target, { classification: 'misinformed_or_potentially_misleading', misleading_tags: ['made_up'] }), 'info.misleading_tags'],
    [note(target, { misleading_tags: ['factual_error'] }), 'info.misleading_tags'],
    [{ ...note(target), test_mode: false }, 'test_mode'],
    [{ post_id: target, info: note(target).info }, 'test_mode'],
    [{ ...note(target), post_id: 'abc' }, 'post_id'],
  ];
  for (const [body, parameter] of cases) {
    const res = await write('dana', body);
    assert.equal(res.status, 400, `${parameter}: ${res.text}`);
    named(res, parameter);
  }
  assert.equal((await write('ada', note(target))).status, 403, 'ada is not a note writer');
  assert.equal((await write('dana', note('1234567890123'))).status, 404);
  assert.equal((await write('dana', note(sample()[4]))).status, 403, "bruno's protected post: dana is no approved follower");
  const misleading = await write('dana', note(target, { classification: 'misinformed_or_potentially_misleading', misleading_tags: ['factual_error', 'missing_important_context'] }));
  assert.equal(misleading.status, 201, misleading.text);
  const count = await plaza.ctx.store.db.selectFrom('community_notes').select((eb) => eb.fn.countAll<number>().as('n')).where('author_id', '=', g.user('dana').id).executeTakeFirstOrThrow();
  assert.equal(Number(count.n), 2, 'refused notes changed nothing');
});

test('GET /2/notes/search/notes_written (test_mode): the writer\'s notes newest first, paged, with note.fields', async () => {
  const auth = await g.enterpriseAs('dana');
  const all = await g.get('/2/notes/search/notes_written?test_mode=true', { auth });
  assert.equal(all.status, 200, all.text);
  assert.equal(all.body.meta.result_count, 2);
  const [newest] = all.body.data;
  assert.deepEqual(Object.keys(newest).sort(), ['id', 'info', 'status']);
  assert.equal(newest.info.post_id, sample()[3]);
  assert.deepEqual(newest.info.misleading_tags, ['factual_error', 'missing_important_context']);
  assert.equal(newest.info.classification, 'misinformed_or_potentially_misleading');

  const first = await g.get('/2/notes/search/notes_written?test_mode=true&max_results=1&note.fields=test_result,scoring_status', { auth });
  assert.equal(first.body.data[0].id, newest.id);
  assert.ok(first.body.data[0].test_result.evaluation_outcome.some((e: any) => e.evaluator_type === 'claim_opinion'));
  assert.deepEqual(first.body.data[0].scoring_status, { has_access: true, rating_counts_per_model: [] });
  const second = await g.get(`/2/notes/search/notes_written?test_mode=true&max_results=1&pagination_token=${first.body.meta.next_token}`, { auth });
  assert.equal(second.body.data[0].id, all.body.data[1].id);
  assert.equal(second.body.meta.next_token, undefined);

  for (const [q, parameter] of [['', 'test_mode'], ['test_mode=false', 'test_mode'], ['test_mode=true&max_results=101', 'max_results'], ['test_mode=true&note.fields=bogus', 'note.fields']]) {
    const res = await g.get(`/2/notes/search/notes_written?${q}`, { auth });
    assert.equal(res.status, 400, `${q}: ${res.text}`);
    named(res, parameter);
  }
  const chen = await g.get('/2/notes/search/notes_written?test_mode=true', { auth: await g.enterpriseAs('chen') });
  assert.equal(chen.status, 403, 'only note writers');
});

test('GET /2/notes/search/posts_eligible_for_notes (test_mode): public posts of others the writer has not noted, with post fields and expansions', async () => {
  const auth = await g.enterpriseAs('dana');
  const res = await g.get('/2/notes/search/posts_eligible_for_notes?test_mode=true&max_results=100&expansions=author_id', { auth });
  assert.equal(res.status, 200, res.text);
  const ids: string[] = res.body.data.map((p: any) => p.id);
  const authors = new Set(res.body.data.map((p: any) => p.author_id));
  assert.ok(!authors.has(g.user('dana').id), 'not her own posts');
  assert.ok(!authors.has(g.user('bruno').id), 'no protected author');
  assert.ok(!ids.includes(sample()[0]) && !ids.includes(sample()[3]), 'not the posts she noted');
  assert.ok(ids.includes(sample()[1]), "chen's reply is eligible");
  assert.ok(res.body.includes.users.some((u: any) => u.id === g.user('chen').id));
  const page = await g.get('/2/notes/search/posts_eligible_for_notes?test_mode=true&max_results=1', { auth });
  assert.equal(page.body.data.length, 1);
  assert.ok(page.body.meta.next_token);
  for (const [q, parameter] of [['', 'test_mode'], ['test_mode=false', 'test_mode'], ['test_mode=true&post_selection=huge', 'post_selection']]) {
    const bad = await g.get(`/2/notes/search/posts_eligible_for_notes?${q}`, { auth });
    assert.equal(bad.status, 400, `${q}: ${bad.text}`);
    named(bad, parameter);
  }
  assert.equal((await g.get('/2/notes/search/posts_eligible_for_notes?test_mode=true&post_selection=feed_size:%20large', { auth })).status, 200);
});

test('DELETE /2/notes/{id}: only the note\'s writer; the post becomes eligible again', async () => {
  await setNoteWriter(plaza.ctx, g.user('chen').id, true);
  const danaAuth = await g.enterpriseAs('dana');
  const [newest] = (await g.get('/2/notes/search/notes_written?test_mode=true', { auth: danaAuth })).body.data;
  assert.equal((await g.send('DELETE', `/2/notes/${newest.id}`, { auth: await g.enterpriseAs('chen') })).status, 403);
  assert.equal((await g.send('DELETE', '/2/notes/1234567890123', { auth: danaAuth })).status, 404);
  const res = await g.send('DELETE', `/2/notes/${newest.id}`, { auth: danaAuth });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body, { data: { deleted: true } });
  assert.equal((await g.get('/2/notes/search/notes_written?test_mode=true', { auth: danaAuth })).body.meta.result_count, 1);
  const eligible = await g.get('/2/notes/search/posts_eligible_for_notes?test_mode=true&max_results=100', { auth: danaAuth });
  assert.ok(eligible.body.data.some((p: any) => p.id === newest.info.post_id));
  await setNoteWriter(plaza.ctx, g.user('chen').id, false);
  assert.equal((await write('chen', note(sample()[3]))).status, 403, 'a withdrawn writer may not write');
});

test('Release history: community notes operations from Jul 8, 2025; POST /2/evaluate_note from Sep 17, 2025', async () => {
  const auth = await g.enterpriseAs('dana');
  const evaluate = () => g.send('POST', '/2/evaluate_note', { auth, body: { post_id: sample()[3], note_text: 'See https://example.com' } });
  try {
    clock.set(new Date('2025-07-07T12:00:00.000Z'));
    assert.equal((await g.get('/2/notes/search/notes_written?test_mode=true', { auth })).status, 404);
    assert.equal((await write('dana', note(sample()[1]))).status, 404);
    clock.set(new Date('2025-07-08T12:00:00.000Z'));
    assert.equal((await g.get('/2/notes/search/notes_written?test_mode=true', { auth })).status, 200);
    assert.equal((await evaluate()).status, 404, 'evaluation arrives on Sep 17');
    clock.set(new Date('2025-09-17T00:00:00.000Z'));
    assert.equal((await evaluate()).status, 200);
  } finally {
    clock.set(NOW);
  }
});
