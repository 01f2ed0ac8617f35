import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures, type Fixtures } from '../../support/fixtures.js';
import { normalise } from '../../support/normalise.js';
import { problemType } from '../../support/problems.js';

/** The post fields and expansions of the public description that Plaza refused before (issue 18). */
let plaza: TestPlaza;
let p: Fixtures;
let ada: { bearer: string }, chen: { bearer: string }, adaEnterprise: { bearer: string };

before(async () => {
  plaza = await startTestPlaza();
  p = fixtures(plaza);
  ada = await p.selfServeAs('ada');
  chen = await p.selfServeAs('chen');
  // Replies and quotes of others' posts go through the enterprise app, which the summoning rule does not bind.
  adaEnterprise = await p.enterpriseAs('ada');
});

const created = async (auth: { bearer: string }, body: Record<string, unknown>): Promise<string> => {
  const res = await p.post(auth, body);
  assert.equal(res.status, 201, res.text);
  return res.body.data.id;
};

test('article_title: the title of the article a post published ({title}); absent on other posts', async () => {
  const drafted = await p.send('POST', '/2/articles/draft', { auth: ada, body: { title: 'Notes from the plaza', content_state: { blocks: [{ text: 'Hello there.', type: 'unstyled' }], entities: [] } } });
  assert.equal(drafted.status, 201, drafted.text);
  const published = await p.send('POST', `/2/articles/${drafted.body.data.id}/publish`, { auth: ada });
  assert.equal(published.status, 200, published.text);
  const plain = await created(ada, { text: 'no article here' });
  const res = await p.get(`/2/posts?ids=${published.body.data.post_id},${plain}&post.fields=article_title`, { auth: p.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data[0].article_title, { title: 'Notes from the plaza' });
  assert.equal('article_title' in res.body.data[1], false);
});

test('note_post: a post longer than 280 characters (weighted as the public platform counts) shows its first 280 in text with their entities and display_text_range, and carries {text, entities} with its whole text; a shorter one has none (issue 34)', async () => {
  const long = `${'word '.repeat(60)}#plaza`;
  const longId = await created(ada, { text: long });
  const exact = await created(ada, { text: 'a'.repeat(280) });
  // An emoji weighs 2: 141 of them are over 280, and text shows 140.
  const emoji = await created(ada, { text: '😀'.repeat(141) });
  const res = await p.get(`/2/posts?ids=${longId},${exact},${emoji}&post.fields=note_post,display_text_range,entities`, { auth: p.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(normalise(res.body, { [longId]: 'long', [exact]: 'exact', [emoji]: 'emoji' }), {
    data: [
      { id: '<long>', text: 'word '.repeat(56), display_text_range: [0, 280], note_post: { text: long, entities: { hashtags: [{ start: 300, end: 306, tag: 'plaza' }] } } },
      // 280 is not longer than 280.
      { id: '<exact>', text: 'a'.repeat(280), display_text_range: [0, 280] },
      { id: '<emoji>', text: '😀'.repeat(140), display_text_range: [0, 140], note_post: { text: '😀'.repeat(141) } },
    ],
  });
});

test('only subscribers post over 280 characters: an author without a paid subscription gets 403 and nothing is written (issue 34)', async () => {
  const dana = p.user('dana');
  const row = await plaza.ctx.store.db.selectFrom('users').select('subscription_type').where('id', '=', dana.id).executeTakeFirstOrThrow();
  assert.equal(row.subscription_type, 'None');
  const refused = await p.post(await p.enterpriseAs('dana'), { text: 'x '.repeat(141) });
  assert.equal(refused.status, 403, refused.text);
  assert.match(refused.body.detail, /280 characters need a paid subscription/);
  const fits = await p.post(await p.enterpriseAs('dana'), { text: `${'x '.repeat(139)}ok ${Date.now()}`.slice(0, 280) });
  assert.equal(fits.status, 201, fits.text);
});

test('media_metadata: one {media_key, alt_text} per attached media, read from the media rows (alt text set through POST /2/media/metadata shows at once)', async () => {
  const one = await p.uploadPng(ada);
  const two = await p.uploadPng(ada, 20, 20);
  const set = await p.send('POST', '/2/media/metadata', { auth: ada, body: { id: one.id, metadata: { alt_text: { text: 'A grey square' } } } });
  assert.equal(set.status, 200, set.text);
  const id = await created(ada, { text: 'two squares', media: { media_ids: [one.id, two.id] } });
  const res = await p.get(`/2/posts/${id}?post.fields=media_metadata`, { auth: p.appAuth });
  assert.deepEqual(res.body.data.media_metadata, [{ media_key: one.media_key, alt_text: 'A grey square' }, { media_key: two.media_key }]);
  await p.send('POST', '/2/media/metadata', { auth: ada, body: { id: two.id, metadata: { alt_text: { text: 'A smaller one' } } } });
  const again = await p.get(`/2/posts/${id}?post.fields=media_metadata`, { auth: p.appAuth });
  assert.equal(again.body.data.media_metadata[1].alt_text, 'A smaller one', 'a changed media row shows, though the post row did not change');
  const none = await p.get(`/2/posts/${await created(ada, { text: 'no media' })}?post.fields=media_metadata`, { auth: p.appAuth });
  assert.equal('media_metadata' in none.body.data, false);
});

test('card_uri: the card URI of a post made through the advertising interface with a card; absent on other posts', async () => {
  const carded = await created(ada, { text: 'with a card' });
  const plain = await created(ada, { text: 'without a card' });
  const at = new Date().toISOString();
  const account = await plaza.ctx.store.db.selectFrom('ads_accounts').select('id').executeTakeFirstOrThrow();
  await plaza.ctx.store.db
    .insertInto('ads_posts')
    .values({ post_id: carded, account_id: account.id, name: null, card_uri: 'card://1234567890', video_cta: null, video_cta_value: null, video_title: null, video_description: null, created_at: at, updated_at: at })
    .execute();
  const res = await p.get(`/2/posts?ids=${carded},${plain}&post.fields=card_uri`, { auth: p.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data[0].card_uri, 'card://1234567890');
  assert.equal('card_uri' in res.body.data[1], false);
});

test('card_uri is current on every read: a card added, changed or removed after a read, through this process or another connection to the store, shows on the next read', async () => {
  const id = await created(ada, { text: 'a card comes later' });
  const read = async () => {
    const res = await p.get(`/2/posts?ids=${id}&post.fields=card_uri`, { auth: p.appAuth });
    assert.equal(res.status, 200, res.text);
    return res.body.data[0].card_uri as string | undefined;
  };
  assert.equal(await read(), undefined);
  const at = new Date().toISOString();
  const account = await plaza.ctx.store.db.selectFrom('ads_accounts').select('id').executeTakeFirstOrThrow();
  await plaza.ctx.store.db
    .insertInto('ads_posts')
    .values({ post_id: id, account_id: account.id, name: null, card_uri: 'card://1', video_cta: null, video_cta_value: null, video_title: null, video_description: null, created_at: at, updated_at: at })
    .execute();
  assert.equal(await read(), 'card://1');
  await plaza.ctx.store.db.updateTable('ads_posts').set({ card_uri: 'card://2' }).where('post_id', '=', id).execute();
  assert.equal(await read(), 'card://2');
  // Another connection (another Plaza process on the same store) writes unseen by this one.
  if (plaza.databaseUrl.startsWith('postgres')) {
    const other = new pg.Client({ connectionString: plaza.databaseUrl });
    await other.connect();
    try {
      await other.query('update ads_posts set card_uri = $1 where post_id = $2', ['card://3', id]);
    } finally {
      await other.end();
    }
  } else {
    const other = new SQLite(plaza.databaseUrl);
    try {
      other.prepare('update ads_posts set card_uri = ? where post_id = ?').run('card://3', id);
    } finally {
      other.close();
    }
  }
  assert.equal(await read(), 'card://3');
  await plaza.ctx.store.db.deleteFrom('ads_posts').where('post_id', '=', id).execute();
  assert.equal(await read(), undefined);
});

test('the community notes fields (matched_media_notes, note_request_suggestions, suggested_source_links, suggested_source_links_with_counts) are accepted and left out: Plaza shows no notes on posts', async () => {
  const id = await created(ada, { text: 'notes fields' });
  const res = await p.get(`/2/posts/${id}?post.fields=matched_media_notes,note_request_suggestions,suggested_source_links,suggested_source_links_with_counts`, { auth: p.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.data, { id, text: 'notes fields' });
});

test('expansions username and referenced_posts: the author in includes.users, the referenced posts in includes.posts', async () => {
  const parent = await created(chen, { text: 'the parent' });
  const reply = await created(adaEnterprise, { text: 'the reply', reply: { in_reply_to_post_id: parent } });
  const res = await p.get(`/2/posts/${reply}?expansions=username,referenced_posts`, { auth: p.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.body.includes.users.map((u: any) => u.username), ['ada']);
  assert.deepEqual(res.body.includes.posts.map((x: any) => x.id), [parent]);
});

test('attachments.media_source_post_id names the post that first showed attached media (not a version of the post itself); the expansion attachments.media_source_post includes it; an unknown expansion is still a 400 naming it', async () => {
  const media = await p.uploadPng(ada);
  const first = await created(ada, { text: 'first showing', media: { media_ids: [media.id] } });
  const again = await created(ada, { text: 'shown again', media: { media_ids: [media.id] } });
  const edited = await p.post(ada, { text: 'first showing, edited', media: { media_ids: [media.id] }, edit_options: { previous_post_id: first } });
  assert.equal(edited.status, 201, edited.text);
  const res = await p.get(`/2/posts?ids=${first},${again},${edited.body.data.id}&post.fields=attachments&expansions=attachments.media_source_post`, { auth: p.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(
    res.body.data.map((x: any) => x.attachments),
    [{ media_keys: [media.media_key] }, { media_keys: [media.media_key], media_source_post_id: [first] }, { media_keys: [media.media_key] }],
    'the first post and its edit show no source; the later post names the first',
  );
  assert.deepEqual(res.body.includes.posts.map((x: any) => x.id), [first]);
  const dialect = await p.get(`/2/tweets/${again}?tweet.fields=attachments&expansions=attachments.media_source_tweet`, { auth: p.appAuth });
  assert.equal(dialect.status, 200, dialect.text);
  assert.deepEqual(dialect.body.data.attachments.media_source_tweet_id, [first]);
  assert.deepEqual(dialect.body.includes.tweets.map((x: any) => x.id), [first]);
  const bad = await p.get(`/2/posts/${again}?expansions=attachments.media_source_nothing`, { auth: p.appAuth });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /expansions/);
});

test('private metrics asked for on a post the caller did not author: the post without them plus a not-authorized-for-field item per field and post; none for the author', async () => {
  const id = await created(ada, { text: 'my metrics' });
  const fields = 'non_public_metrics,organic_metrics,public_metrics';
  const other = await p.get(`/2/posts/${id}?post.fields=${fields}`, { auth: chen });
  assert.equal(other.status, 200, other.text);
  const refused = (field: string) => ({
    title: 'Field Authorization Error',
    detail: `Sorry, you are not authorized to access the '${field}' field of this post (id: ${id}).`, // the detail names the post
    field,
    resource_type: 'post',
    section: 'data',
    type: problemType('not-authorized-for-field'),
  });
  assert.deepEqual(normalise(other.body, { [id]: 'post' }), {
    data: { id: '<post>', text: 'my metrics', public_metrics: { retweet_count: 0, reply_count: 0, like_count: 0, quote_count: 0, bookmark_count: 0, impression_count: 0 } },
    errors: [refused('non_public_metrics'), refused('organic_metrics')],
  });
  const app = await p.get(`/2/posts/${id}?post.fields=promoted_metrics`, { auth: p.appAuth });
  assert.deepEqual(app.body.errors.map((e: any) => e.field), ['promoted_metrics'], 'app-only callers are no author');
  const mine = await p.get(`/2/posts/${id}?post.fields=${fields}`, { auth: ada });
  assert.ok(mine.body.data.non_public_metrics);
  assert.equal(mine.body.errors, undefined);
  const plain = await p.get(`/2/posts/${id}?post.fields=public_metrics`, { auth: chen });
  assert.equal(plain.body.errors, undefined, 'no errors unless a private field is selected');
});

test('private metrics on an included post the caller did not author: a not-authorized-for-field item in section includes; in the tweet dialect resource_type is tweet', async () => {
  const parent = await created(chen, { text: 'chen writes' });
  const quote = await created(adaEnterprise, { text: 'ada quotes', quote_post_id: parent });
  const res = await p.get(`/2/posts/${quote}?post.fields=non_public_metrics&expansions=referenced_posts.id`, { auth: ada });
  assert.equal(res.status, 200, res.text);
  assert.ok(res.body.data.non_public_metrics, 'ada wrote the quote');
  assert.deepEqual(res.body.errors.map((e: any) => [e.field, e.section]), [['non_public_metrics', 'includes']]);
  const dialect = await p.get(`/2/tweets/${quote}?tweet.fields=non_public_metrics&expansions=referenced_tweets.id`, { auth: ada });
  assert.equal(dialect.body.errors[0].resource_type, 'tweet');
});

test('the served description lists the new post fields and expansions', async () => {
  const doc = (await p.get('/2/openapi.json')).body;
  const text = JSON.stringify(doc);
  for (const name of ['article_title', 'card_uri', 'media_metadata', 'note_post', 'matched_media_notes', 'suggested_source_links_with_counts', 'attachments.media_source_post']) {
    assert.ok(text.includes(`"${name}"`), name);
  }
});
