import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { issueOAuth1AccessToken } from '../../../src/auth/issue.js';
import { ManualClock } from '../../../src/clock.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { problemType } from '../../support/problems.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';

let plaza: TestPlaza;
let p: Fixtures;
let withMedia: string, reply: string, quote: string, announcement: string, privatePost: string;

before(async () => {
  plaza = await startTestPlaza();
  p = fixtures(plaza);
  [withMedia, reply, quote, announcement, privatePost] = plaza.creds.sample.post_ids;
});

/** The store's post count and event count, to show a refusal changed nothing. */
async function snapshot() {
  const posts = await plaza.ctx.store.db.selectFrom('posts').select(({ fn }) => fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return { posts: Number(posts.n), seq: await p.lastSeq() };
}

test('POST /2/posts answers 201 with data {id, text, edit_history_post_ids} as the public platform, and stores author, conversation, time, lang, source and entities with offsets', async () => {
  const auth = await p.selfServeAs('ada');
  const text = 'Launch notes with @dana 🎉 #plaza $PLZ https://example.com/notes';
  const res = await p.post(auth, { text });
  assert.equal(res.status, 201);
  assert.deepEqual(Object.keys(res.body.data).sort(), ['edit_history_post_ids', 'id', 'text']);
  assert.equal(res.body.data.text, text);
  assert.deepEqual(res.body.data.edit_history_post_ids, [res.body.data.id]);
  const post = await p.lookup(res.body.data.id);
  assert.equal(post.author_id, p.user('ada').id);
  assert.equal(post.conversation_id, post.id, 'a new post starts its own conversation');
  assert.equal(post.source, p.selfServe.name, 'source is the posting app');
  assert.equal(post.lang, 'en');
  assert.equal(post.in_reply_to_user_id, undefined);
  assert.equal(post.referenced_posts, undefined);
  assert.ok(Math.abs(Date.parse(post.created_at) - Date.now()) < 60_000);
  const { mentions, hashtags, cashtags, urls } = post.entities;
  const chars = [...text];
  const slice = (e: { start: number; end: number }) => chars.slice(e.start, e.end).join('');
  assert.equal(slice(mentions[0]), '@dana', 'offsets count code points (the emoji is one)');
  assert.equal(slice(hashtags[0]), '#plaza');
  assert.equal(slice(cashtags[0]), '$PLZ');
  assert.equal(slice(urls[0]), 'https://example.com/notes');
  assert.equal((await p.userRow('ada')).most_recent_post_id, post.id);
});

test('post.create is appended in the same transaction as the post, its payload the Post object (shared/reference §7)', async () => {
  const seq = await p.lastSeq();
  const res = await p.post(await p.selfServeAs('ada'), { text: 'An event for subscribers', paid_partnership: true });
  const events = await p.eventsSince(seq, 'post.create');
  assert.equal(events.length, 1);
  assert.equal(events[0].subject, res.body.data.id);
  assert.equal(events[0].payload.id, res.body.data.id);
  assert.equal(events[0].payload.text, 'An event for subscribers');
  assert.equal(events[0].payload.author_id, p.user('ada').id);
  assert.equal(events[0].payload.paid_partnership, true, 'paid_partnership is set on create and read in the post fields');
  assert.deepEqual(events[0].payload.edit_history_post_ids, [res.body.data.id]);
});

test('rule 3: long-form posts of up to 25,000 characters can be created (the former limit was 4,000); more is an invalid-request naming text that changes nothing', async () => {
  const auth = await p.selfServeAs('ada');
  const longest = await p.post(auth, { text: '😀'.repeat(25_000) });
  assert.equal(longest.status, 201, '25,000 characters (code points, here 50,000 UTF-16 units)');
  const read = await p.lookup(longest.body.data.id, 'note_post');
  assert.equal(read.note_post.text.length, 50_000, 'the whole text in note_post');
  assert.equal(read.text.length, 280, 'text shows the first 280 weighted characters: 140 emoji of weight 2');
  assert.equal((await p.post(auth, { text: 'a'.repeat(4_001) })).status, 201, 'past the former 4,000 limit');
  const before = await snapshot();
  const tooLong = await p.post(auth, { text: 'a'.repeat(25_001) });
  assert.equal(tooLong.status, 400);
  assert.equal(tooLong.body.type, problemType('invalid-request'));
  assert.deepEqual(Object.keys(tooLong.body.errors[0].parameters), ['text']);
  assert.match(tooLong.body.errors[0].message, /25001 characters long; posts may be at most 25000/);
  assert.deepEqual(await snapshot(), before);
});

test('bad input is an invalid-request naming the parameter and changes nothing: no text and no media, unknown fields, NUL characters, malformed ids', async () => {
  const auth = await p.selfServeAs('ada');
  const before = await snapshot();
  const cases: Array<[Record<string, unknown>, string]> = [
    [{}, 'text'],
    [{ text: '   ' }, 'text'],
    [{ text: 'hi', tweet_mode: 'extended' }, 'tweet_mode'],
    [{ text: 'nul \u0000 here' }, 'text'],
    [{ text: 'hi', quote_post_id: 'abc' }, 'quote_post_id'],
    [{ text: 'hi', reply: {} }, 'in_reply_to_post_id'],
    [{ text: 'hi', reply_settings: 'nobody' }, 'reply_settings'],
    [{ text: 'hi', share_with_followers: true }, 'share_with_followers'],
  ];
  for (const [body, parameter] of cases) {
    const res = await p.post(auth, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.type, problemType('invalid-request'));
    assert.ok(parameter in res.body.errors[0].parameters, `${JSON.stringify(body)} names ${parameter}: ${JSON.stringify(res.body.errors)}`);
  }
  assert.deepEqual(await snapshot(), before);
});

test('POST /2/posts needs user context with post.write, and read-write access under OAuth 1.0a', async () => {
  const app = await p.post(p.appAuth, { text: 'hi' });
  assert.equal(app.status, 403);
  assert.equal(app.body.type, problemType('unsupported-authentication'));
  const readOnlyScopes = await p.selfServeAs('ada', ['post.read', 'users.read']);
  const noScope = await p.post(readOnlyScopes, { text: 'hi' });
  assert.equal(noScope.status, 403);
  assert.match(noScope.body.detail, /post\.write/);
  const token = await plaza.ctx.store.db.transaction().execute((tx) => issueOAuth1AccessToken(plaza.ctx, tx, p.selfServe.id, p.user('ada').id, 'read'));
  const readOnly = await p.post({ oauth1: { consumer_key: p.selfServe.consumer_key, consumer_secret: p.selfServe.consumer_secret, token: token.token, token_secret: token.secret } }, { text: 'hi' });
  assert.equal(readOnly.status, 403);
  assert.match(readOnly.body.detail, /read-only/);
  assert.equal((await p.post(p.oauth1As('ada'), { text: 'Signed with OAuth 1.0a' })).status, 201);
});

test('a reply (reply.in_reply_to_post_id) sets in_reply_to_user_id, the conversation of the original, referenced_posts replied_to, and moves the original reply_count', async () => {
  const auth = await p.selfServeAs('ada');
  const before = await p.lookup(announcement);
  const res = await p.post(auth, { text: 'Thanks for the mention!', reply: { in_reply_to_post_id: announcement } });
  assert.equal(res.status, 201);
  const post = await p.lookup(res.body.data.id);
  assert.equal(post.in_reply_to_user_id, p.user('plazanews').id);
  assert.equal(post.conversation_id, announcement);
  assert.deepEqual(post.referenced_posts, [{ type: 'replied_to', id: announcement }]);
  assert.equal((await p.lookup(announcement)).public_metrics.reply_count, before.public_metrics.reply_count + 1);
  const nested = await p.post(await p.enterpriseAs('chen'), { text: 'Deeper in the thread', reply: { in_reply_to_post_id: reply } });
  assert.equal((await p.lookup(nested.body.data.id)).conversation_id, announcement, 'a reply to a reply stays in the first post\'s conversation');
});

test('rule 1: on self-serve tiers a programmatic reply is permitted only when the original post\'s author summoned the replier; otherwise 403 not-authorized-for-resource, changing nothing', async () => {
  // The announcement (by plazanews) mentions @ada only.
  const before = await snapshot();
  const refused = await p.post(await p.selfServeAs('dana'), { text: 'Unsolicited reply', reply: { in_reply_to_post_id: announcement } });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.type, problemType('not-authorized-for-resource'));
  assert.ok(refused.body.detail.startsWith('You can only reply to or quote posts where you are mentioned or are the author.'), refused.body.detail);
  assert.equal(refused.body.parameter, 'reply.in_reply_to_post_id');
  assert.equal(refused.body.resource_id, announcement);
  assert.equal(refused.body.resource_type, 'post');
  assert.equal(refused.body.section, 'data');
  assert.deepEqual(await snapshot(), before);

  assert.equal((await p.post(await p.selfServeAs('ada'), { text: 'Summoned by a mention', reply: { in_reply_to_post_id: announcement } })).status, 201, 'the original mentions the replying account');
  // dana's quote post quotes one of ada's posts: dana summoned ada.
  assert.equal((await p.post(await p.selfServeAs('ada'), { text: 'Summoned by a quote', reply: { in_reply_to_post_id: quote } })).status, 201, 'the original quotes one of the replier\'s posts');
  assert.equal((await p.post(await p.selfServeAs('plazanews'), { text: 'Our own thread goes on', reply: { in_reply_to_post_id: announcement } })).status, 201, 'the author replying to their own post (a thread)');
});

test('rule 1: every self-serve tier (free, basic, pro, pay-per-use) is restricted; enterprise is exempt', async () => {
  const db = plaza.ctx.store.db;
  try {
    for (const tier of ['free', 'basic', 'pro', 'pay-per-use'] as const) {
      await db.updateTable('apps').set({ tier }).where('id', '=', p.selfServe.id).execute();
      const res = await p.post(await p.selfServeAs('dana'), { text: `Reply from ${tier}`, reply: { in_reply_to_post_id: announcement } });
      assert.equal(res.status, 403, tier);
    }
  } finally {
    await db.updateTable('apps').set({ tier: 'pro' }).where('id', '=', p.selfServe.id).execute();
  }
  const enterprise = await p.post(await p.enterpriseAs('dana'), { text: 'Enterprise reply', reply: { in_reply_to_post_id: announcement } });
  assert.equal(enterprise.status, 201);
});

test('rule 1 (further restrictions of quotes): a self-serve app quotes only posts whose author summoned it; the quote sets referenced_posts quoted and moves quote_count; enterprise is exempt', async () => {
  const refused = await p.post(await p.selfServeAs('dana'), { text: 'Look at this', quote_post_id: announcement });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.type, problemType('not-authorized-for-resource'));
  assert.equal(refused.body.parameter, 'quote_post_id');
  assert.ok(refused.body.detail.startsWith('You can only reply to or quote posts where you are mentioned or are the author.'), refused.body.detail);
  const before = (await p.lookup(announcement)).public_metrics.quote_count;
  const allowed = await p.post(await p.selfServeAs('ada'), { text: 'I was mentioned here', quote_post_id: announcement });
  assert.equal(allowed.status, 201);
  const post = await p.lookup(allowed.body.data.id);
  assert.deepEqual(post.referenced_posts, [{ type: 'quoted', id: announcement }]);
  assert.equal(post.conversation_id, post.id, 'a quote starts its own conversation');
  assert.equal((await p.lookup(announcement)).public_metrics.quote_count, before + 1);
  assert.equal((await p.post(await p.enterpriseAs('dana'), { text: 'Enterprise quote', quote_post_id: announcement })).status, 201);
});

test('rule 1 (further restrictions of mentions): a self-serve app mentions only accounts that summoned it (mentioned it or quoted one of its posts); itself, unknown names, the people of a permitted reply, and enterprise are not restricted', async () => {
  const chen = await p.selfServeAs('chen');
  const before = await snapshot();
  const refused = await p.post(chen, { text: 'Hey @Ada, look at my project' });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.type, problemType('not-authorized-for-resource'));
  assert.equal(refused.body.resource_type, 'user');
  assert.equal(refused.body.resource_id, p.user('ada').id);
  assert.equal(refused.body.parameter, 'text');
  assert.match(refused.body.detail, /@ada has not/);
  assert.deepEqual(await snapshot(), before);
  // dana mentioned @ada ("@ada your photo from the plaza is lovely."): dana summoned ada.
  assert.equal((await p.post(await p.selfServeAs('ada'), { text: 'Thank you @dana!' })).status, 201);
  assert.equal((await p.post(chen, { text: 'Note to self @chen, and to @nobody_here' })).status, 201);
  // The announcement mentions @ada; ada's reply may name its author and the people it addresses.
  assert.equal((await p.post(await p.selfServeAs('ada'), { text: '@plazanews @ada thanks', reply: { in_reply_to_post_id: announcement } })).status, 201);
  assert.equal((await p.post(await p.enterpriseAs('chen'), { text: 'Hey @ada, from an enterprise app' })).status, 201);
});

test('rule 1 binds from Feb 23, 2026 (release history): before that day, by the store\'s clock, a self-serve app replies, quotes and mentions freely', async () => {
  const clock = new ManualClock(new Date('2026-02-20T12:00:00.000Z'));
  const early = await startTestPlaza({}, { clock });
  const e = fixtures(early);
  const [, , , ann] = early.creds.sample.post_ids;
  const dana = await e.selfServeAs('dana');
  assert.equal((await e.post(dana, { text: 'Reply before the restriction', reply: { in_reply_to_post_id: ann } })).status, 201);
  assert.equal((await e.post(dana, { text: 'Quote before the restriction', quote_post_id: ann })).status, 201);
  assert.equal((await e.post(await e.selfServeAs('chen'), { text: 'Hi @bruno' })).status, 201);
  clock.set(new Date('2026-02-23T00:00:00.000Z'));
  assert.equal((await e.post(await e.selfServeAs('dana'), { text: 'Reply on the day', reply: { in_reply_to_post_id: ann } })).status, 403);
});

test('reply_settings limits who besides the author may reply (mentionedUsers, following, verified); the author always may', async () => {
  const ada = await p.enterpriseAs('ada');
  const mentioned = await p.post(ada, { text: 'Only @dana may answer', reply_settings: 'mentionedUsers' });
  assert.equal((await p.lookup(mentioned.body.data.id)).reply_settings, 'mentionedUsers');
  assert.equal((await p.post(await p.enterpriseAs('dana'), { text: 'Me!', reply: { in_reply_to_post_id: mentioned.body.data.id } })).status, 201);
  const chen = await p.post(await p.enterpriseAs('chen'), { text: 'Me too?', reply: { in_reply_to_post_id: mentioned.body.data.id } });
  assert.equal(chen.status, 403);
  assert.equal(chen.body.type, problemType('not-authorized-for-resource'));
  assert.match(chen.body.detail, /accounts the post mentions/);
  assert.equal((await p.post(ada, { text: 'Mine', reply: { in_reply_to_post_id: mentioned.body.data.id } })).status, 201);
  // ada follows plazanews and bruno, not chen; bruno is not verified, plazanews is.
  const following = await p.post(ada, { text: 'Followed accounts only', reply_settings: 'following' });
  assert.equal((await p.post(await p.enterpriseAs('plazanews'), { text: 'ok', reply: { in_reply_to_post_id: following.body.data.id } })).status, 201);
  assert.equal((await p.post(await p.enterpriseAs('chen'), { text: 'no', reply: { in_reply_to_post_id: following.body.data.id } })).status, 403);
  const verified = await p.post(ada, { text: 'Verified only', reply_settings: 'verified' });
  assert.equal((await p.post(await p.enterpriseAs('plazanews'), { text: 'ok', reply: { in_reply_to_post_id: verified.body.data.id } })).status, 201);
  assert.equal((await p.post(await p.enterpriseAs('bruno'), { text: 'no', reply: { in_reply_to_post_id: verified.body.data.id } })).status, 403);
});

test('replying to or quoting a missing or deleted post is 404 resource-not-found naming the parameter; a protected post the caller may not see is 403; a blocked caller is refused', async () => {
  const dana = await p.enterpriseAs('dana');
  const missing = await p.post(dana, { text: 'hi', reply: { in_reply_to_post_id: '1234567890123456789' } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.type, problemType('resource-not-found'));
  assert.equal(missing.body.parameter, 'reply.in_reply_to_post_id');
  const quoteMissing = await p.post(dana, { text: 'hi', quote_post_id: '1234567890123456789' });
  assert.equal(quoteMissing.body.parameter, 'quote_post_id');
  const gone = await p.post(dana, { text: 'soon gone' });
  await p.send('DELETE', `/2/posts/${gone.body.data.id}`, { auth: dana });
  assert.equal((await p.post(dana, { text: 'hi', reply: { in_reply_to_post_id: gone.body.data.id } })).status, 404);
  const hidden = await p.post(dana, { text: 'Sneaky quote', quote_post_id: privatePost });
  assert.equal(hidden.status, 403, 'dana does not follow the protected bruno');
  assert.equal(hidden.body.type, problemType('not-authorized-for-resource'));
  await plaza.ctx.store.db.insertInto('blocks').values({ id: plaza.ctx.ids.next(), source_user_id: p.user('plazanews').id, target_user_id: p.user('dana').id, created_at: new Date().toISOString() }).execute();
  try {
    const blocked = await p.post(dana, { text: 'Blocked reply', reply: { in_reply_to_post_id: announcement } });
    assert.equal(blocked.status, 403);
    assert.match(blocked.body.detail, /blocked you/);
  } finally {
    await plaza.ctx.store.db.deleteFrom('blocks').where('source_user_id', '=', p.user('plazanews').id).execute();
  }
});

test('a reply to a repost answers the reposted post', async () => {
  const dana = await p.enterpriseAs('dana');
  const repost = await p.send('POST', `/2/users/${p.user('dana').id}/reposts`, { auth: dana, body: { post_id: withMedia } });
  const res = await p.post(dana, { text: 'Replying through a repost', reply: { in_reply_to_post_id: repost.body.data.rest_id } });
  assert.deepEqual((await p.lookup(res.body.data.id)).referenced_posts, [{ type: 'replied_to', id: withMedia }]);
});

test('poll: options 2-4 and duration_minutes 5-10080 are stored; attachments.poll_ids and the attachments.poll_ids expansion with poll.fields are real', async () => {
  const auth = await p.selfServeAs('plazanews');
  const res = await p.post(auth, { text: 'Tea or coffee?', poll: { options: ['Tea', 'Coffee', 'Neither'], duration_minutes: 90 } });
  assert.equal(res.status, 201);
  const got = await p.get(`/2/posts/${res.body.data.id}?post.fields=attachments&expansions=attachments.poll_ids&poll.fields=duration_minutes,end_datetime,voting_status`, { auth: p.appAuth });
  const [pollId] = got.body.data.attachments.poll_ids;
  assert.match(pollId, /^[0-9]{1,19}$/);
  const [poll] = got.body.includes.polls;
  assert.equal(poll.id, pollId);
  assert.deepEqual(poll.options, [{ position: 1, label: 'Tea', votes: 0 }, { position: 2, label: 'Coffee', votes: 0 }, { position: 3, label: 'Neither', votes: 0 }]);
  assert.equal(poll.duration_minutes, 90);
  assert.equal(poll.voting_status, 'open');
  const created = (await p.lookup(res.body.data.id)).created_at;
  assert.equal(Date.parse(poll.end_datetime) - Date.parse(created), 90 * 60_000);
  const defaults = await p.get(`/2/posts/${res.body.data.id}?expansions=attachments.poll_ids`, { auth: p.appAuth });
  assert.deepEqual(Object.keys(defaults.body.includes.polls[0]).sort(), ['id', 'options'], 'poll defaults: id and options');
  const unknown = await p.get(`/2/posts/${res.body.data.id}?expansions=attachments.poll_ids&poll.fields=votes`, { auth: p.appAuth });
  assert.equal(unknown.status, 400);
  assert.deepEqual(unknown.body.errors[0].parameters, { 'poll.fields': ['votes'] });
});

test('poll: fewer than 2 or more than 4 options, blank or repeated options, labels over 25 characters, and durations outside 5-10080 minutes are invalid-requests naming poll', async () => {
  const auth = await p.selfServeAs('plazanews');
  const before = await snapshot();
  for (const poll of [
    { options: ['Only'], duration_minutes: 60 },
    { options: ['a', 'b', 'c', 'd', 'e'], duration_minutes: 60 },
    { options: ['a', 'b'], duration_minutes: 4 },
    { options: ['a', 'b'], duration_minutes: 10081 },
    { options: ['a', 'x'.repeat(26)], duration_minutes: 60 },
    { options: ['Same', 'same'], duration_minutes: 60 },
    { options: ['a', '  '], duration_minutes: 60 },
  ]) {
    const res = await p.post(auth, { text: 'Vote!', poll });
    assert.equal(res.status, 400, JSON.stringify(poll));
    assert.ok(Object.keys(res.body.errors[0].parameters)[0].startsWith('poll'), JSON.stringify(res.body.errors));
  }
  const media = await p.uploadPng(await p.selfServeAs('plazanews'));
  assert.equal((await p.post(auth, { text: 'Vote!', poll: { options: ['a', 'b'], duration_minutes: 60 }, media: { media_ids: [media.id] } })).status, 400, 'a poll and media together');
  assert.equal((await p.post(auth, { text: 'Vote!', poll: { options: ['a', 'b'], duration_minutes: 60 }, quote_post_id: announcement })).status, 400, 'a poll and a quote together');
  const after = await snapshot();
  assert.equal(after.posts, before.posts);
});

test('a poll closes at end_datetime by the store\'s clock: voting_status open, then closed', async () => {
  const clock = new ManualClock();
  const timed = await startTestPlaza({}, { clock });
  const t = fixtures(timed);
  const res = await t.post(await t.selfServeAs('plazanews'), { text: 'Quick poll', poll: { options: ['Yes', 'No'], duration_minutes: 5 } });
  const status = async () => (await t.get(`/2/posts/${res.body.data.id}?expansions=attachments.poll_ids&poll.fields=voting_status`, { auth: t.appAuth })).body.includes.polls[0].voting_status;
  assert.equal(await status(), 'open');
  clock.advance(5 * 60_000);
  assert.equal(await status(), 'closed');
});

test('media.media_ids attaches the caller\'s uploads: attachments.media_keys in order, and the attachments.media_keys expansion with media fields', async () => {
  const auth = await p.selfServeAs('ada');
  const first = await p.uploadPng(auth, 64, 48);
  const second = await p.uploadPng(auth, 32, 16);
  const res = await p.post(auth, { text: '', media: { media_ids: [second.id, first.id] } });
  assert.equal(res.status, 201, 'text may be empty when media is attached');
  const got = await p.get(`/2/posts/${res.body.data.id}?post.fields=attachments&expansions=attachments.media_keys&media.fields=width,height,url,type`, { auth: p.appAuth });
  assert.deepEqual(got.body.data.attachments.media_keys, [second.media_key, first.media_key]);
  assert.deepEqual(got.body.includes.media.map((m: any) => [m.media_key, m.type, m.width, m.height]), [[second.media_key, 'photo', 32, 16], [first.media_key, 'photo', 64, 48]]);
});

test('media.media_ids: someone else\'s upload, an unknown id, a repeated id and more than 4 ids are invalid-requests naming media.media_ids', async () => {
  const ada = await p.selfServeAs('ada');
  const mine = await p.uploadPng(ada);
  const dana = await p.selfServeAs('dana');
  const before = await snapshot();
  for (const ids of [[mine.id], ['1234567890123456789']]) {
    const res = await p.post(dana, { text: 'Borrowed', media: { media_ids: ids } });
    assert.equal(res.status, 400);
    assert.deepEqual(Object.keys(res.body.errors[0].parameters), ['media.media_ids']);
  }
  const own = await p.uploadPng(dana);
  assert.equal((await p.post(dana, { text: 'Twice', media: { media_ids: [own.id, own.id] } })).status, 400);
  const five = await p.post(dana, { text: 'Five', media: { media_ids: [own.id, own.id, own.id, own.id, own.id] } });
  assert.equal(five.status, 400);
  assert.deepEqual(Object.keys(five.body.errors[0].parameters), ['media.media_ids']);
  const tagged = await p.post(dana, { text: 'Tagged', media: { media_ids: [own.id], tagged_user_ids: ['1234567890123456789'] } });
  assert.deepEqual(tagged.body.errors[0].parameters, { 'media.tagged_user_ids': ['1234567890123456789'] });
  assert.equal((await snapshot()).posts, before.posts);
});
