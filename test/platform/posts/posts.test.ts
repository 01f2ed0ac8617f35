import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { postDeclaration } from '../../../src/platform/posts/wire.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { fixtures } from '../../support/fixtures.js';
import { problemType } from '../../support/problems.js';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let withMedia: string, reply: string, quote: string, announcement: string, privatePost: string;
const MISSING = '1234567890123456789';

before(async () => {
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  [withMedia, reply, quote, announcement, privatePost] = plaza.creds.sample.post_ids;
});

test('default fields: a post returns only id and text unless more are requested', async () => {
  const res = await f.get(`/2/posts/${withMedia}`, { auth: f.appAuth });
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body.data).sort(), ['id', 'text']);
  assert.equal(res.body.includes, undefined);
});

test('post.fields adds the named fields to each post; every post field of the data dictionary can be returned', async () => {
  const all = Object.keys(postDeclaration.fields).join(',');
  const res = await f.get(`/2/posts?ids=${withMedia},${reply},${quote},${announcement}&post.fields=${all}`, { auth: f.appAuth });
  assert.equal(res.status, 200);
  const [media, rep, quo, ann] = res.body.data;
  for (const field of ['id', 'text', 'author_id', 'created_at', 'conversation_id', 'lang', 'source', 'possibly_sensitive', 'public_metrics', 'edit_history_post_ids', 'edit_controls', 'paid_partnership', 'impression_count', 'reply_settings']) {
    assert.ok(field in media, `${field} returned`);
  }
  assert.match(media.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'ISO 8601 with milliseconds, UTC');
  assert.deepEqual(Object.keys(media.public_metrics).filter((k) => ['retweet_count', 'reply_count', 'like_count', 'quote_count'].includes(k)).sort(), ['like_count', 'quote_count', 'reply_count', 'retweet_count']);
  assert.equal(media.attachments.media_keys.length, 2);
  assert.equal(media.public_metrics.quote_count, 1, 'the quote counts on the quoted post');
  assert.deepEqual(rep.referenced_posts, [{ type: 'replied_to', id: announcement }]);
  assert.equal(rep.in_reply_to_user_id, ann.author_id);
  assert.equal(rep.conversation_id, announcement);
  assert.deepEqual(quo.referenced_posts, [{ type: 'quoted', id: withMedia }]);
  assert.equal(ann.public_metrics.reply_count, 1);
  const { urls, mentions, hashtags, cashtags } = ann.entities;
  assert.equal(urls[0].url, 'https://example.com/plaza');
  assert.equal(ann.text.slice(urls[0].start, urls[0].end), 'https://example.com/plaza');
  assert.deepEqual(mentions.map((m: any) => m.username), ['ada']);
  assert.deepEqual(hashtags.map((h: any) => h.tag), ['launch']);
  assert.deepEqual(cashtags.map((c: any) => c.tag), ['PLZ']);
});

test('without an expansion, related objects are absent', async () => {
  const res = await f.get(`/2/posts?ids=${withMedia}&post.fields=author_id,attachments`, { auth: f.appAuth });
  assert.equal(res.body.includes, undefined);
});

test('with expansion attachments.media_keys, each media object appears in includes.media with at least media_key and type', async () => {
  const res = await f.get(`/2/posts?ids=${withMedia}&expansions=attachments.media_keys`, { auth: f.appAuth });
  assert.equal(res.body.includes.media.length, 2);
  for (const m of res.body.includes.media) {
    assert.equal(typeof m.media_key, 'string');
    assert.ok(['photo', 'video', 'animated_gif'].includes(m.type));
  }
  assert.equal(res.body.includes.users, undefined, 'only expanded kinds appear');
});

test('media.fields adds the named fields to media objects in includes (duration_ms, public_metrics.view_count)', async () => {
  const res = await f.get(`/2/posts?ids=${withMedia}&expansions=attachments.media_keys&media.fields=duration_ms,public_metrics,width,height`, { auth: f.appAuth });
  const video = res.body.includes.media.find((m: any) => m.type === 'video');
  assert.equal(video.duration_ms, 12000);
  assert.equal(video.public_metrics.view_count, 1234);
  assert.equal(video.width, 1280);
});

test('expansions author_id, in_reply_to_user_id, entities.mentions.username add users to includes.users', async () => {
  const res = await f.get(`/2/posts?ids=${reply},${announcement}&expansions=author_id,in_reply_to_user_id,entities.mentions.username&user.fields=verified`, { auth: f.appAuth });
  const usernames = res.body.includes.users.map((u: any) => u.username).sort();
  assert.deepEqual(usernames, ['ada', 'chen', 'plazanews']);
  for (const u of res.body.includes.users) assert.deepEqual(Object.keys(u).sort(), ['id', 'name', 'username', 'verified']);
});

test('expansions referenced_posts.id and referenced_posts.id.author_id add the referenced posts and their authors', async () => {
  const res = await f.get(`/2/posts?ids=${quote}&expansions=referenced_posts.id,referenced_posts.id.author_id&post.fields=author_id`, { auth: f.appAuth });
  assert.deepEqual(res.body.includes.posts.map((p: any) => p.id), [withMedia]);
  assert.deepEqual(res.body.includes.users.map((u: any) => u.username), ['ada']);
  const only = await f.get(`/2/posts?ids=${quote}&expansions=referenced_posts.id.author_id`, { auth: f.appAuth });
  assert.equal(only.body.includes.posts, undefined, 'the nested expansion alone includes only the users');
  assert.deepEqual(only.body.includes.users.map((u: any) => u.username), ['ada']);
});

test('unknown ids: 200 with the found items in data and one resource-not-found item per missing id in errors', async () => {
  const res = await f.get(`/2/posts?ids=${withMedia},${MISSING}`, { auth: f.appAuth });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data.map((p: any) => p.id), [withMedia]);
  assert.equal(res.body.errors.length, 1);
  const [e] = res.body.errors;
  assert.equal(e.type, problemType('resource-not-found'));
  assert.equal(e.parameter, 'ids');
  assert.equal(e.value, MISSING);
  assert.equal(e.resource_id, MISSING);
  assert.equal(e.resource_type, 'post');
  assert.equal(e.title, 'Not Found Error');
});

test('a single-id lookup of a missing post answers 200 with only errors (the public platform\'s observed behaviour)', async () => {
  const res = await f.get(`/2/posts/${MISSING}`, { auth: f.appAuth });
  assert.equal(res.status, 200);
  assert.equal(res.body.data, undefined);
  assert.equal(res.body.errors[0].parameter, 'id');
  assert.equal(res.body.errors[0].resource_type, 'post');
});

test('posts of a protected account: visible only to the author and approved followers; others get not-authorized-for-resource in errors', async () => {
  const asApp = await f.get(`/2/posts?ids=${privatePost},${withMedia}`, { auth: f.appAuth });
  assert.deepEqual(asApp.body.data.map((p: any) => p.id), [withMedia]);
  assert.equal(asApp.body.errors[0].type, problemType('not-authorized-for-resource'));
  assert.equal(asApp.body.errors[0].section, 'data');
  assert.equal(asApp.body.errors[0].resource_id, privatePost);
  const asStranger = await f.get(`/2/posts/${privatePost}`, { auth: f.oauth2As('dana') });
  assert.equal(asStranger.body.data, undefined);
  const asFollower = await f.get(`/2/posts/${privatePost}`, { auth: f.oauth1As('ada') });
  assert.equal(asFollower.body.data.id, privatePost, 'ada follows bruno');
  const asAuthor = await f.get(`/2/posts/${privatePost}`, { auth: f.oauth2As('bruno') });
  assert.equal(asAuthor.body.data.id, privatePost);
});

test('an unknown field or expansion name is an invalid-request naming the parameter', async () => {
  for (const [param, valid, value] of [['post.fields', 'id', 'bogus'], ['expansions', 'author_id', 'nope'], ['user.fields', 'id', 'x'], ['media.fields', 'type', 'y']]) {
    const res = await f.get(`/2/posts?ids=${withMedia}&${param}=${valid},${value}`, { auth: f.appAuth });
    assert.equal(res.status, 400, param);
    assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(res.body.type, problemType('invalid-request'));
    assert.deepEqual(res.body.errors[0].parameters, { [param]: [value] });
    assert.match(res.body.errors[0].message, new RegExp(`\`${param.replace('.', '\\.')}\``));
  }
});

test('a malformed id is an invalid-request naming the parameter (ids and the path id)', async () => {
  const bad = await f.get('/2/posts?ids=12,abc', { auth: f.appAuth });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.errors[0].parameters, { ids: ['abc'] });
  const tooLong = await f.get('/2/posts/12345678901234567890', { auth: f.appAuth });
  assert.equal(tooLong.status, 400);
  assert.deepEqual(tooLong.body.errors[0].parameters, { id: ['12345678901234567890'] });
  assert.equal(tooLong.body.title, 'Invalid Request');
  assert.equal(tooLong.body.detail, 'One or more parameters to your request was invalid.');
});

test('more than 100 ids is an invalid-request naming ids; a missing ids parameter too', async () => {
  const ids = Array.from({ length: 101 }, (_, i) => String(1000 + i)).join(',');
  const res = await f.get(`/2/posts?ids=${ids}`, { auth: f.appAuth });
  assert.equal(res.status, 400);
  assert.ok('ids' in res.body.errors[0].parameters);
  const exactly100 = await f.get(`/2/posts?ids=${Array.from({ length: 100 }, (_, i) => String(1000 + i)).join(',')}`, { auth: f.appAuth });
  assert.equal(exactly100.status, 200);
  assert.equal(exactly100.body.errors.length, 100);
  const missing = await f.get('/2/posts', { auth: f.appAuth });
  assert.equal(missing.status, 400);
  assert.ok('ids' in missing.body.errors[0].parameters);
});

test('an unknown query parameter is an invalid-request naming it', async () => {
  const res = await f.get(`/2/posts?ids=${withMedia}&tweet_mode=extended`, { auth: f.appAuth });
  assert.equal(res.status, 400);
  assert.deepEqual(res.body.errors[0].parameters, { tweet_mode: ['extended'] });
});
