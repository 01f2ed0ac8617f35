import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ManualClock } from '../../../src/clock.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { problemType } from '../../support/problems.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';

let plaza: TestPlaza;
let p: Fixtures;
let clock: ManualClock;
let announcement: string;
const HOUR = 60 * 60_000;

before(async () => {
  clock = new ManualClock();
  plaza = await startTestPlaza({}, { clock });
  p = fixtures(plaza);
  [, , , announcement] = plaza.creds.sample.post_ids;
});

/** ada has a paid subscription (Premium); a new post of hers, made now by the store's clock. */
async function adaPost(text = 'Draft with a typo') {
  const res = await p.post(await p.enterpriseAs('ada'), { text });
  assert.equal(res.status, 201);
  return res.body.data.id as string;
}

const edit = async (username: string, previous: string, text: string, extra: Record<string, unknown> = {}) =>
  p.post(await p.enterpriseAs(username), { text, edit_options: { previous_post_id: previous }, ...extra });

test('rule 2: editing uses edit_options.previous_post_id: a new id that joins edit_history_post_ids of the whole chain, edits_remaining decreases, and lookups of the old id still work', async () => {
  const first = await adaPost();
  clock.advance(5 * 60_000);
  const second = await edit('ada', first, 'Draft without a typo');
  assert.equal(second.status, 201);
  assert.notEqual(second.body.data.id, first);
  assert.deepEqual(second.body.data.edit_history_post_ids, [first, second.body.data.id]);
  clock.advance(5 * 60_000);
  const third = await edit('ada', second.body.data.id, 'Final draft');
  const chain = [first, second.body.data.id, third.body.data.id];
  assert.deepEqual(third.body.data.edit_history_post_ids, chain);
  for (const id of chain) {
    const post = await p.lookup(id);
    assert.ok(post, `the version ${id} can still be looked up`);
    assert.deepEqual(post.edit_history_post_ids, chain, 'every version carries the whole chain');
    assert.equal(post.edit_controls.edits_remaining, 3, 'five edits allowed, two used');
  }
  assert.equal((await p.lookup(first)).text, 'Draft with a typo', 'the old version keeps its own text');
  assert.equal((await p.lookup(third.body.data.id)).text, 'Final draft');
  const editable = (await p.lookup(third.body.data.id)).edit_controls;
  assert.equal(editable.is_edit_eligible, true);
  assert.equal(Date.parse(editable.editable_until) - Date.parse((await p.lookup(first)).created_at), HOUR, 'the window runs from the first version');
  const expanded = await p.get(`/2/posts/${third.body.data.id}?expansions=edit_history_post_ids`, { auth: p.appAuth });
  assert.deepEqual(expanded.body.includes.posts.map((x: any) => x.id), [first, second.body.data.id], 'the edit_history_post_ids expansion includes the earlier versions');
});

test('rule 2: an edit is counted once: no post count, reply count or quote count moves; the new version keeps the conversation and references; post.create tells of the new version', async () => {
  const ada = await p.enterpriseAs('ada');
  const replyRes = await p.post(ada, { text: 'A reply to edit', reply: { in_reply_to_post_id: announcement } });
  const parentBefore = (await p.lookup(announcement)).public_metrics.reply_count;
  const postsBefore = (await p.userRow('ada')).post_count;
  const seq = await p.lastSeq();
  const edited = await edit('ada', replyRes.body.data.id, 'A reply, edited');
  assert.equal(edited.status, 201);
  const post = await p.lookup(edited.body.data.id);
  const known = { [announcement]: 'announcement', [replyRes.body.data.id]: 'reply', [edited.body.data.id]: 'edited', [p.user('ada').id]: 'ada', [p.user('plazanews').id]: 'plazanews' };
  assert.deepEqual(normalise(post, known), {
    id: '<edited>',
    text: 'A reply, edited',
    author_id: '<ada>',
    conversation_id: '<announcement>',
    created_at: '<time>',
    edit_controls: { edits_remaining: 4, is_edit_eligible: true, editable_until: '<time>' },
    edit_history_post_ids: ['<reply>', '<edited>'],
    in_reply_to_user_id: '<plazanews>',
    lang: 'und', // 'A reply, edited' is too short to tell (issue 34: lang is detected)
    paid_partnership: false,
    public_metrics: { retweet_count: 0, reply_count: 0, like_count: 0, quote_count: 0, bookmark_count: 0, impression_count: 0 },
    referenced_posts: [{ type: 'replied_to', id: '<announcement>' }],
    reply_settings: 'everyone',
    source: p.enterprise.name,
  });
  assert.equal((await p.lookup(announcement)).public_metrics.reply_count, parentBefore);
  assert.equal((await p.userRow('ada')).post_count, postsBefore);
  assert.equal((await p.userRow('ada')).most_recent_post_id, edited.body.data.id);
  const events = await p.eventsSince(seq, 'post.create');
  assert.equal(events.length, 1);
  assert.deepEqual(events[0].payload.edit_history_post_ids, [replyRes.body.data.id, edited.body.data.id]);
});

test('rule 2: the caller needs a paid subscription (subscription_type not None): 403 saying so, changing nothing', async () => {
  const danaPost = (await p.post(await p.enterpriseAs('dana'), { text: 'No subscription here' })).body.data.id;
  const seq = await p.lastSeq();
  const refused = await edit('dana', danaPost, 'Edited anyway?');
  assert.equal(refused.status, 403);
  assert.equal(refused.body.type, 'about:blank');
  assert.match(refused.body.detail, /needs a paid subscription/);
  assert.equal((await p.eventsSince(seq)).length, 0);
  assert.equal((await p.lookup(danaPost)).edit_history_post_ids.length, 1);
  await plaza.ctx.store.db.updateTable('users').set({ subscription_type: 'Basic' }).where('id', '=', p.user('dana').id).execute();
  try {
    assert.equal((await edit('dana', danaPost, 'Edited with Basic')).status, 201);
  } finally {
    await plaza.ctx.store.db.updateTable('users').set({ subscription_type: 'None' }).where('id', '=', p.user('dana').id).execute();
  }
});

test('rule 2: the post must be the caller\'s own: 403 not-authorized-for-resource naming edit_options.previous_post_id; a missing post is 404', async () => {
  const refused = await edit('ada', announcement, 'Not my post');
  assert.equal(refused.status, 403);
  assert.deepEqual(normalise(refused.body, { [announcement]: 'announcement' }), {
    title: 'Authorization Error',
    type: problemType('not-authorized-for-resource'),
    status: 403,
    detail: `You can only edit your own posts; post ${announcement} belongs to another account.`,
    parameter: 'edit_options.previous_post_id',
    value: '<announcement>',
    resource_type: 'post',
    resource_id: '<announcement>',
    section: 'data',
  });
  const missing = await edit('ada', '1234567890123456789', 'Nothing there');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.type, problemType('resource-not-found'));
  assert.equal(missing.body.parameter, 'edit_options.previous_post_id');
});

test('rule 2: at most one hour old, by the injected clock: at exactly one hour it may be edited, a millisecond later it may not (403 saying the window closed); editable_until names that last moment and is_edit_eligible does not change with time', async () => {
  const atTheHour = await adaPost('Edit me at the hour');
  const late = await adaPost('Edit me too late');
  const controls = { edits_remaining: 5, is_edit_eligible: true, editable_until: new Date(clock.now().getTime() + HOUR).toISOString() };
  assert.deepEqual((await p.lookup(late)).edit_controls, controls);
  clock.advance(HOUR);
  assert.equal(clock.now().toISOString(), controls.editable_until, 'editable_until is the last moment an edit is taken');
  assert.deepEqual((await p.lookup(late)).edit_controls, controls);
  assert.equal((await edit('ada', atTheHour, 'Edited at 60:00.000')).status, 201);
  clock.advance(1);
  const refused = await edit('ada', late, 'Edited at 60:00.001');
  assert.equal(refused.status, 403);
  assert.equal(refused.body.type, 'about:blank');
  assert.match(refused.body.detail, /can no longer be edited: posts can be edited for one hour after posting/);
  assert.deepEqual((await p.lookup(late)).edit_controls, controls, 'whether a post was eligible when published: the same a millisecond later');
});

test('rule 2: the hour runs from the first version, so a later version cannot extend it', async () => {
  const first = await adaPost('Edited early');
  clock.advance(50 * 60_000);
  const second = await edit('ada', first, 'Edited at 50 minutes');
  assert.equal(second.status, 201);
  clock.advance(11 * 60_000);
  const refused = await edit('ada', second.body.data.id, 'Edited at 61 minutes');
  assert.equal(refused.status, 403);
  assert.match(refused.body.detail, /one hour/);
});

test('rule 2: five edits at most; then 403 saying none remain', async () => {
  let id = await adaPost('Version 0');
  for (let i = 1; i <= 5; i++) {
    const res = await edit('ada', id, `Version ${i}`);
    assert.equal(res.status, 201, `edit ${i}`);
    id = res.body.data.id;
  }
  assert.equal((await p.lookup(id)).edit_controls.edits_remaining, 0);
  assert.equal((await p.lookup(id)).edit_controls.is_edit_eligible, true, 'eligible when published: edits_remaining says none are left');
  const refused = await edit('ada', id, 'Version 6');
  assert.equal(refused.status, 403);
  assert.match(refused.body.detail, /no edits remaining/);
});

test('rule 2: only the latest version is edited; reposts and polls cannot be; an edit keeps the reply, quote and community (invalid-requests naming the parameter)', async () => {
  const first = await adaPost('Latest only');
  await edit('ada', first, 'Latest only (2)');
  const stale = await edit('ada', first, 'From the old version');
  assert.equal(stale.status, 400);
  assert.deepEqual(Object.keys(stale.body.errors[0].parameters), ['edit_options.previous_post_id']);
  assert.match(stale.body.errors[0].message, /has been edited since/);
  const fresh = await adaPost('Keep my place');
  for (const extra of [{ reply: { in_reply_to_post_id: announcement } }, { quote_post_id: announcement }, { poll: { options: ['a', 'b'], duration_minutes: 10 } }]) {
    const res = await edit('ada', fresh, 'Moved?', extra);
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body.errors[0].parameters), Object.keys(extra));
  }
  const repost = await p.send('POST', `/2/users/${p.user('ada').id}/reposts`, { auth: await p.enterpriseAs('ada'), body: { post_id: announcement } });
  assert.equal((await edit('ada', repost.body.data.rest_id, 'Edit a repost')).status, 400);
  const poll = await p.post(await p.enterpriseAs('ada'), { text: 'Poll', poll: { options: ['a', 'b'], duration_minutes: 10 } });
  assert.equal((await edit('ada', poll.body.data.id, 'Poll edited')).status, 400);
  assert.equal((await p.lookup(poll.body.data.id)).edit_controls.is_edit_eligible, false, 'a post with a poll is not eligible for edits');
  assert.equal((await p.lookup(fresh)).edit_controls.is_edit_eligible, true);
});

test('rule 2: an edit may replace the media, which must be the caller\'s; without media the new version has none', async () => {
  const ada = await p.enterpriseAs('ada');
  const photo = await p.uploadPng(await p.selfServeAs('ada'));
  const first = (await p.post(ada, { text: 'With a photo', media: { media_ids: [photo.id] } })).body.data.id;
  const other = await p.uploadPng(await p.selfServeAs('ada'), 20, 20);
  const swapped = await edit('ada', first, 'Another photo', { media: { media_ids: [other.id] } });
  assert.deepEqual((await p.lookup(swapped.body.data.id)).attachments.media_keys, [other.media_key]);
  const bare = await edit('ada', swapped.body.data.id, 'No photo now');
  assert.equal((await p.lookup(bare.body.data.id)).attachments, undefined);
  const danaPhoto = await p.uploadPng(await p.selfServeAs('dana'));
  const refused = await edit('ada', bare.body.data.id, 'Borrowed photo', { media: { media_ids: [danaPhoto.id] } });
  assert.equal(refused.status, 400);
  assert.deepEqual(Object.keys(refused.body.errors[0].parameters), ['media.media_ids']);
});

test('deleting any version of an edited post deletes every version, with one post.delete per version', async () => {
  const first = await adaPost('Delete me whole');
  const second = (await edit('ada', first, 'Delete me whole (edited)')).body.data.id;
  const postsBefore = (await p.userRow('ada')).post_count;
  const seq = await p.lastSeq();
  const res = await p.send('DELETE', `/2/posts/${first}`, { auth: await p.enterpriseAs('ada') });
  assert.deepEqual(res.body, { data: { deleted: true } });
  for (const id of [first, second]) assert.equal((await p.get(`/2/posts/${id}`, { auth: p.appAuth })).body.data, undefined);
  assert.deepEqual((await p.eventsSince(seq, 'post.delete')).map((e) => e.payload).sort((a, b) => a.id.localeCompare(b.id)), [first, second].sort().map((id) => ({ id, author_id: p.user('ada').id })));
  assert.equal((await p.userRow('ada')).post_count, postsBefore - 1, 'the chain counted once, and is uncounted once');
});
