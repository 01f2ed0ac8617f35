import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { png } from '../support/media-files.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';

/** The 'tweet' dialect over plain HTTP (issue 15), and the v1.1 media upload's own shapes. */

let plaza: TestPlaza;
let g: Fixtures;
let withMedia: string, reply: string, quote: string;

before(async () => {
  plaza = await startTestPlaza();
  g = fixtures(plaza);
  [withMedia, reply, quote] = plaza.creds.sample.post_ids;
});

test('a request in the spec\'s words is answered exactly as before: post.fields, referenced_posts, includes.posts, resource_type post', async () => {
  const res = await g.get(`/2/posts/${quote}?post.fields=referenced_posts,edit_history_post_ids&expansions=referenced_posts.id`, { auth: g.appAuth });
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body.data).sort(), ['edit_history_post_ids', 'id', 'referenced_posts', 'text']);
  assert.ok(res.body.includes.posts.length);
  assert.equal(res.body.includes.tweets, undefined);
  const missing = await g.get('/2/posts/1234567890123456789', { auth: g.appAuth });
  assert.equal(missing.body.errors[0].resource_type, 'post');
});

test('the same request in the dialect is the same answer with the dialect\'s names, member for member', async () => {
  const spec = await g.get(`/2/posts/${quote}?post.fields=referenced_posts,edit_history_post_ids,public_metrics&expansions=referenced_posts.id,author_id&user.fields=public_metrics`, { auth: g.appAuth });
  const dialect = await g.get(`/2/tweets/${quote}?tweet.fields=referenced_tweets,edit_history_tweet_ids,public_metrics&expansions=referenced_tweets.id,author_id&user.fields=public_metrics`, { auth: g.appAuth });
  assert.equal(dialect.status, 200);
  const renamed = dialect.text
    .replace(/edit_history_tweet_ids/g, 'edit_history_post_ids')
    .replace(/referenced_tweets/g, 'referenced_posts')
    .replace(/"tweets":/g, '"posts":')
    .replace(/"tweet_count":/g, '"post_count":');
  assert.equal(renamed, spec.text);
});

test('paths of the dialect reach their operations: /2/users/:id/tweets, /2/tweets/:id/retweeted_by, /2/tweets/:id/quote_tweets, /2/users/:id/liked_tweets', async () => {
  const dana = g.user('dana');
  const auth = await g.enterpriseAs('dana');
  for (const path of [`/2/users/${dana.id}/tweets`, `/2/tweets/${withMedia}/retweeted_by`, `/2/tweets/${withMedia}/quote_tweets`, `/2/users/${dana.id}/liked_tweets`]) {
    const res = await g.get(path, { auth });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
  }
});

test('a JSON body with tweet_id (POST /2/users/:id/likes) is accepted and answered in the dialect; a missing tweet is resource_type tweet, parameter tweet_id', async () => {
  const chen = g.user('chen');
  const auth = await g.enterpriseAs('chen');
  const liked = await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { tweet_id: reply } });
  assert.deepEqual(liked.body, { data: { liked: true } });
  const missing = await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { tweet_id: '1234567890123456789' } });
  assert.equal(missing.status, 404);
  assert.equal(missing.body.resource_type, 'tweet');
  assert.equal(missing.body.parameter, 'tweet_id');
  assert.doesNotMatch(missing.text, /post_id|Could not find post/);
  const bad = await g.send('POST', `/2/users/${chen.id}/likes`, { auth, body: { tweet_id: 'abc' } });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /tweet_id/);
  assert.doesNotMatch(bad.text, /post_id/);
});

test('POST /2/users/:id/retweets {tweet_id} answers {retweeted:true}; the post\'s reference type reads "retweeted" in the dialect and "reposted" in the spec\'s words', async () => {
  const chen = g.user('chen');
  const auth = await g.enterpriseAs('chen');
  const res = await g.send('POST', `/2/users/${chen.id}/retweets`, { auth, body: { tweet_id: quote } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.body.data.retweeted, true);
  const timeline = await g.get(`/2/users/${chen.id}/tweets?tweet.fields=referenced_tweets&max_results=5`, { auth });
  assert.ok(timeline.body.data.some((p: { referenced_tweets?: Array<{ type: string }> }) => p.referenced_tweets?.[0].type === 'retweeted'), timeline.text);
  const spec = await g.get(`/2/users/${chen.id}/posts?post.fields=referenced_posts&max_results=5`, { auth });
  assert.ok(spec.body.data.some((p: { referenced_posts?: Array<{ type: string }> }) => p.referenced_posts?.[0].type === 'reposted'));
});

test('OAuth 1.0a: the signature over the URL as sent (/2/tweets/:id?tweet.fields=...) verifies; one over the translated URL does not', async () => {
  const path = `/2/tweets/${quote}?tweet.fields=created_at`;
  const url = `${plaza.urls.base_url}${path}`;
  const auth = g.oauth1As('ada').oauth1;
  const ok = await fetch(url, { headers: { authorization: oauth1Header(auth, 'GET', url) } });
  assert.equal(ok.status, 200, await ok.text());
  const translated = `${plaza.urls.base_url}/2/posts/${quote}?post.fields=created_at`;
  const wrong = await fetch(url, { headers: { authorization: oauth1Header(auth, 'GET', translated) } });
  assert.equal(wrong.status, 401);
  await wrong.text();
});

test('GET /2/openapi-tweets.json is Plaza\'s description in the dialect (paths /2/tweets..., tweet.fields, edit_history_tweet_ids); /2/openapi.json stays in the spec\'s words', async () => {
  const tweets = (await g.get('/2/openapi-tweets.json')).body;
  const posts = (await g.get('/2/openapi.json')).body;
  assert.ok(tweets.paths['/2/tweets/{id}']);
  assert.ok(tweets.paths['/2/users/{id}/liked_tweets']);
  assert.equal(Object.keys(tweets.paths).filter((p) => /\/posts(\/|$)/.test(p) && p.startsWith('/2/')).length, 0);
  assert.equal(Object.keys(tweets.paths).length, Object.keys(posts.paths).length);
  const params = tweets.paths['/2/tweets/{id}'].get.parameters.map((p: { name: string }) => p.name);
  assert.ok(params.includes('tweet.fields'), params.join());
  assert.match(JSON.stringify(tweets), /edit_history_tweet_ids/);
  assert.ok(posts.paths['/2/posts/{id}']);
  assert.equal(posts.paths['/2/tweets/{id}'], undefined);
});

const UPLOAD = '/1.1/media/upload.json';
const signedForm = (form: Record<string, string>, username = 'ada') => {
  const url = `${plaza.urls.base_url}${UPLOAD}`;
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: oauth1Header(g.oauth1As(username).oauth1, 'POST', url, form) },
    body: new URLSearchParams(form).toString(),
  });
};

test('POST /1.1/media/upload.json simple upload (form, base64 media_data, OAuth 1.0a signed with the body): media_id as a 64-bit integer, media_id_string, media_key, size, expires_after_secs, image', async () => {
  const bytes = png(30, 12);
  const res = await signedForm({ media_data: bytes.toString('base64'), media_category: 'tweet_image' });
  const text = await res.text();
  assert.equal(res.status, 200, text);
  const body = JSON.parse(text);
  assert.match(text, new RegExp(`^\\{"media_id":${body.media_id_string},"media_id_string":"${body.media_id_string}"`), 'media_id written as the exact integer');
  assert.match(body.media_key, /^3_[0-9]+$/);
  assert.equal(body.size, bytes.length);
  assert.equal(body.expires_after_secs, 86400);
  assert.deepEqual(body.image, { image_type: 'image/png', w: 30, h: 12 });
});

test('v1.1 upload, chunked by form: INIT, APPEND answers 204 with no body, FINALIZE, STATUS (GET) says succeeded', async () => {
  const bytes = png(50, 50);
  const init = await (await signedForm({ command: 'INIT', total_bytes: String(bytes.length), media_type: 'image/png', media_category: 'TweetImage' })).json();
  assert.match(init.media_id_string, /^[0-9]+$/);
  const half = Math.floor(bytes.length / 2);
  for (const [i, part] of [bytes.subarray(0, half), bytes.subarray(half)].entries()) {
    const res = await signedForm({ command: 'APPEND', media_id: init.media_id_string, segment_index: String(i), media_data: part.toString('base64') });
    assert.equal(res.status, 204);
    assert.equal(await res.text(), '');
  }
  const fin = await (await signedForm({ command: 'FINALIZE', media_id: init.media_id_string })).json();
  assert.equal(fin.media_id_string, init.media_id_string);
  assert.equal(fin.size, bytes.length);
  const url = `${plaza.urls.base_url}${UPLOAD}?command=STATUS&media_id=${init.media_id_string}`;
  const status = await fetch(url, { headers: { authorization: oauth1Header(g.oauth1As('ada').oauth1, 'GET', url) } });
  const info = await status.json();
  assert.equal(info.processing_info.state, 'succeeded');
});

test('v1.1 upload refusals are v1.1 errors ({errors:[{code,message}]}) and change nothing: no credentials (215), a bearer token (215), a bad command (44), a missing media_type (38), an unknown media id (324)', async () => {
  const url = `${plaza.urls.base_url}${UPLOAD}`;
  const none = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'command=INIT' });
  assert.equal(none.status, 400);
  assert.equal((await none.json()).errors[0].code, 215);
  const bearer = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${g.appAuth.bearer}`, 'content-type': 'application/x-www-form-urlencoded' }, body: 'command=INIT' });
  assert.equal((await bearer.json()).errors[0].code, 215);
  const cmd = await signedForm({ command: 'DANCE' });
  assert.equal(cmd.status, 400);
  assert.deepEqual(await cmd.json(), { errors: [{ code: 44, message: 'command parameter is invalid.' }] });
  const noType = await signedForm({ command: 'INIT', total_bytes: '10' });
  assert.equal(noType.status, 400);
  const noTypeBody = await noType.json();
  assert.equal(noTypeBody.errors[0].code, 38);
  assert.match(noTypeBody.errors[0].message, /media_type/);
  const unknown = await signedForm({ command: 'FINALIZE', media_id: '1234567890123456789' });
  assert.equal(unknown.status, 400);
  assert.equal((await unknown.json()).errors[0].code, 324);
  const otherUser = await signedForm({ command: 'INIT', total_bytes: '10', media_type: 'image/png' });
  const id = (await otherUser.json()).media_id_string;
  const foreign = await signedForm({ command: 'APPEND', media_id: id, segment_index: '0', media_data: 'AAAA' }, 'chen');
  assert.equal((await foreign.json()).errors[0].code, 324, "another user's upload is unknown");
});
