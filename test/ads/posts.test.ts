import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { linkAccountUser } from '../../src/ads/accounts/store.js';
import { normalise } from '../support/normalise.js';
import { creativesKit, startAdsPlaza, type AdsKit } from './support.js';
import { eventually } from '../support/wait.js';

/**
 * Ada as the v1.1 user object the ads post carries (shared/reference: the SDK's fixtures), with the
 * counts that the file's other tests move taken from the answer.
 */
function adaV1User(answered: { statuses_count: number; media_count: number }) {
  return {
    id: '<ada>', id_str: '<ada>', name: 'Ada Example', screen_name: 'ada', location: 'London', url: null,
    description: 'Writes about #engineering and pays for Premium.', protected: false, verified: true, followers_count: 2,
    friends_count: 2, listed_count: 0, favourites_count: 2, statuses_count: answered.statuses_count, media_count: answered.media_count,
    created_at: '<v1-time>', utc_offset: null, time_zone: null, geo_enabled: false, lang: null, contributors_enabled: false, is_translator: false,
    profile_image_url: 'http://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png',
    profile_image_url_https: 'https://abs.twimg.com/sticky/default_profile_images/default_profile_normal.png',
    default_profile: true, default_profile_image: false, following: null, follow_request_sent: null, notifications: null,
  };
}

/** Issue #13: posts through the advertising interface, scheduled posts and draft posts. */
let k: AdsKit;
let c: ReturnType<typeof creativesKit>;
let account: string;
let adaId: string;
let brunoId: string;
let images: string[];
let gif: string;
let video: string;
let cardUri: string;
const postPath = () => `/12/accounts/${account}/post`;
const make = (query: Record<string, string | number | boolean>) => k.sandbox.post(postPath(), { query: { as_user_id: adaId, ...query } });

before(async () => {
  k = await startAdsPlaza();
  c = creativesKit(k);
  account = (await k.sandboxSetup('ada')).account;
  adaId = k.user('ada').id;
  brunoId = k.user('bruno').id;
  images = [];
  for (let i = 0; i < 5; i++) images.push(await c.inLibrary(account, 'image'));
  gif = await c.inLibrary(account, 'gif');
  video = await c.inLibrary(account, 'video');
  const card = await k.sandbox.post(`/12/accounts/${account}/cards`, {
    json: { name: 'Card', components: [{ type: 'MEDIA', media_key: images[0] }, { type: 'DETAILS', title: 'More', destination: { type: 'WEBSITE', url: 'https://example.com' } }] },
  });
  cardUri = card.body.data.card_uri;
});

/** GET /2/users/:id/posts and the author's home timeline, as post ids. */
async function timelines(username: string) {
  const id = k.user(username).id;
  const own = await c.p.get(`/2/users/${id}/posts?max_results=100`, { auth: c.p.appAuth });
  const home = await c.p.get(`/2/users/${id}/timelines/reverse_chronological?max_results=100`, { auth: c.p.oauth2As(username) });
  return { own: (own.body.data ?? []).map((p: any) => p.id), home: (home.body.data ?? []).map((p: any) => p.id) };
}

test('POST accounts/:account_id/post answers the fields of spec 001 "Post created through the advertising interface"; with trim_user only the author\'s id', async () => {
  const res = await make({ text: 'Hello from the ads side #launch @bruno https://example.com', name: 'First', trim_user: false });
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  // conversation_settings is not in the POST response.
  assert.deepEqual(normalise(res.body, { [account]: 'account', [adaId]: 'ada', [brunoId]: 'bruno', [d.id]: 'post' }), {
    request: {
      params: {
        account_id: '<account>', as_user_id: '<ada>', text: 'Hello from the ads side #launch @bruno https://example.com', name: 'First',
        trim_user: false,
      },
    },
    data: {
      created_at: '<v1-time>', id: '<post>', id_str: '<post>', text: 'Hello from the ads side #launch @bruno https://example.com', name: 'First',
      truncated: false,
      entities: {
        hashtags: [{ text: 'launch', indices: [24, 31] }], symbols: [],
        urls: [{ url: 'https://example.com', expanded_url: 'https://example.com', display_url: 'example.com', indices: [39, 58] }],
        user_mentions: [{ screen_name: 'bruno', indices: [32, 38] }],
      },
      source: 'Plaza Demo', in_reply_to_status_id: null, in_reply_to_status_id_str: null, in_reply_to_user_id: null, in_reply_to_user_id_str: null,
      in_reply_to_screen_name: null,
      user: adaV1User(d.user), // the v1.1 user object
      geo: null, coordinates: null, place: null, contributors: null, retweet_count: 0, favorite_count: 0, favorited: false, retweeted: false,
      scopes: { followers: false }, lang: 'en', card_uri: null, media_keys: [],
    },
  });
  const trimmed = await make({ text: 'Trimmed', trim_user: true });
  assert.deepEqual(trimmed.body.data.user, { id: adaId, id_str: adaId });
  const lookup = await c.p.get(`/2/posts/${d.id}`, { auth: c.p.appAuth });
  assert.equal(lookup.body.data.text, 'Hello from the ads side #launch @bruno https://example.com', 'a post of the platform store');
});

test('as_user_id is required and the advertiser must have granted the caller\'s handle access', async () => {
  const missing = await k.sandbox.post(postPath(), { query: { text: 'x' } });
  assert.deepEqual([missing.body.errors[0].code, missing.body.errors[0].parameter], ['MISSING_PARAMETER', 'as_user_id']);
  const stranger = await make({ as_user_id: k.user('dana').id, text: 'x' });
  assert.equal(stranger.status, 403);
  assert.equal(stranger.body.errors[0].parameter, 'as_user_id');
  const unknown = await make({ as_user_id: '123456789', text: 'x' });
  assert.equal(unknown.body.errors[0].code, 'INVALID_USER_ID');
  await linkAccountUser(k.plaza.ctx.store.db, account, brunoId, ['TWEET_COMPOSER'], new Date().toISOString());
  const granted = await make({ as_user_id: brunoId, text: 'Bruno granted Ada access' });
  assert.equal(granted.status, 200, granted.text);
  assert.equal(granted.body.data.user.id, brunoId);
});

test('nullcast defaults to true (a promoted-only post, readable by id but absent from timelines and search); false (organic, in the author\'s timeline) only for the authenticated user', async () => {
  const promoted = (await make({ text: 'Promoted only, never on a timeline zqxpromo' })).body.data;
  const organic = (await make({ text: 'Organic from the ads side zqxpromo', nullcast: false })).body.data;
  // Search answers up to 30 s ago by default: let the injected clock pass that.
  k.clock.offsetMs += 60_000;
  const found = await c.p.get('/2/posts/search/recent?query=zqxpromo', { auth: c.p.appAuth });
  assert.equal(found.status, 200, found.text);
  assert.deepEqual(found.body.data.map((p: { id: string }) => p.id), [organic.id], 'search finds the organic post only');
  const ada = await timelines('ada');
  assert.ok(ada.own.includes(organic.id) && ada.home.includes(organic.id), 'nullcast=false: on the author\'s timelines');
  assert.ok(!ada.own.includes(promoted.id) && !ada.home.includes(promoted.id), 'nullcast=true: on no timeline');
  const danaHome = await timelines('dana');
  assert.ok(!danaHome.home.includes(promoted.id), 'nor on a follower\'s home timeline');
  assert.equal((await c.p.get(`/2/posts/${promoted.id}`, { auth: c.p.appAuth })).body.data.id, promoted.id, 'readable by id');
  assert.equal((await c.p.get(`/2/posts?ids=${promoted.id},${organic.id}`, { auth: c.p.appAuth })).body.data.length, 2);
  const full = await k.sandbox.get(`/12/accounts/${account}/posts/${promoted.id}`);
  assert.equal(full.body.data.nullcast, true);
  assert.equal((await k.sandbox.get(`/12/accounts/${account}/posts/${organic.id}`)).body.data.nullcast, false);
  const forOther = await make({ as_user_id: brunoId, text: 'Organic for someone else', nullcast: false });
  assert.equal(forOther.status, 400);
  assert.equal(forOther.body.errors[0].parameter, 'nullcast');
});

test('text is required without media_keys; media_keys hold up to 4 images or 1 GIF or 1 video of the media library; card_uri attaches a card; name ≤80', async () => {
  const blank = await make({});
  assert.equal(blank.status, 400);
  assert.equal(blank.body.errors[0].parameter, 'text');
  const photos = await make({ media_keys: images.slice(0, 4).join(',') });
  assert.equal(photos.status, 200, photos.text);
  assert.deepEqual(photos.body.data.media_keys, images.slice(0, 4));
  assert.equal((await make({ media_keys: images.join(',') })).body.errors[0].parameter, 'media_keys');
  assert.equal((await make({ media_keys: `${images[0]},${gif}` })).status, 400);
  assert.equal((await make({ media_keys: `${video},${gif}` })).status, 400);
  assert.equal((await make({ media_keys: gif })).status, 200);
  assert.equal((await make({ media_keys: video, text: 'With video' })).status, 200);
  assert.equal((await make({ media_keys: '3_12345' })).status, 404, 'not in the media library');
  const library = await k.sandbox.get(`/12/accounts/${account}/media_library/${video}`);
  assert.equal(library.body.data.posted, true, 'the library object says it was posted');
  const withCard = await make({ text: 'With a card', card_uri: cardUri });
  assert.equal(withCard.body.data.card_uri, cardUri);
  assert.equal((await make({ text: 'x', card_uri: 'card://nothing' })).body.errors[0].code, 'CARD_NOT_FOUND');
  assert.equal((await make({ text: 'x', name: 'n'.repeat(81) })).body.errors[0].parameter, 'name');
  assert.equal((await make({ text: 'x', name: 'n'.repeat(80) })).status, 200);
});

test('post_mode compat|extended: compat cuts long text and says truncated; extended answers full_text and display_text_range', async () => {
  const long = 'word '.repeat(60).trim();
  const compat = (await make({ text: long, post_mode: 'compat' })).body.data;
  assert.equal(compat.truncated, true);
  assert.equal([...compat.text].length, 140);
  const extended = (await make({ text: long, post_mode: 'extended' })).body.data;
  assert.equal(extended.full_text, long);
  assert.deepEqual(extended.display_text_range, [0, long.length]);
  assert.equal(extended.truncated, false);
  assert.equal((await make({ text: 'x', post_mode: 'full' })).body.errors[0].parameter, 'post_mode');
});

test('conversation_settings EVERYONE|FOLLOWING|MENTIONED_USERS: not in the POST response but in GET', async () => {
  const made = await make({ text: 'Only people I follow may reply', conversation_settings: 'FOLLOWING' });
  assert.equal(made.status, 200, made.text);
  assert.ok(!('conversation_settings' in made.body.data));
  const got = await k.sandbox.get(`/12/accounts/${account}/posts/${made.body.data.id}`);
  assert.equal(got.body.data.conversation_settings, 'FOLLOWING');
  const platform = await c.p.get(`/2/posts/${made.body.data.id}?post.fields=reply_settings`, { auth: c.p.appAuth });
  assert.equal(platform.body.data.reply_settings, 'following');
  assert.equal((await make({ text: 'x', conversation_settings: 'NOBODY' })).body.errors[0].parameter, 'conversation_settings');
  const list = await k.sandbox.get(`/12/accounts/${account}/posts`, { query: { post_type: 'PUBLISHED', post_ids: made.body.data.id } });
  assert.equal(list.body.data[0].conversation_settings, 'FOLLOWING');
});

test('video_cta (VISIT_SITE, WATCH_NOW), video_cta_value, video_title ≤70, video_description ≤200 go with a video', async () => {
  const ok = await make({ media_keys: video, video_cta: 'WATCH_NOW', video_cta_value: 'https://example.com/watch', video_title: 't'.repeat(70), video_description: 'd'.repeat(200) });
  assert.equal(ok.status, 200, ok.text);
  assert.equal((await make({ media_keys: video, video_title: 't'.repeat(71) })).body.errors[0].parameter, 'video_title');
  assert.equal((await make({ media_keys: video, video_description: 'd'.repeat(201) })).body.errors[0].parameter, 'video_description');
  assert.equal((await make({ media_keys: video, video_cta: 'BUY_NOW', video_cta_value: 'x' })).body.errors[0].parameter, 'video_cta');
  assert.equal((await make({ media_keys: video, video_cta: 'VISIT_SITE' })).body.errors[0].parameter, 'video_cta_value');
  assert.equal((await make({ media_keys: images[0], video_title: 'x' })).body.errors[0].parameter, 'video_title', 'for a video only');
});

test('PUT accounts/:account_id/posts/:post_id/name (name ≤80) returns the post with conversation_settings, nullcast, post_type, scheduled_at, scheduled_status, full_text, display_text_range, post_id', async () => {
  const made = (await make({ text: 'Rename me' })).body.data;
  const res = await k.sandbox.put(`/12/accounts/${account}/posts/${made.id}/name`, { query: { name: 'Renamed' } });
  assert.equal(res.status, 200, res.text);
  const d = res.body.data;
  assert.deepEqual(normalise(res.body, { [account]: 'account', [adaId]: 'ada', [made.id]: 'post' }), {
    request: { params: { account_id: '<account>', post_id: '<post>', name: 'Renamed' } },
    data: {
      created_at: '<v1-time>', id: '<post>', id_str: '<post>', text: 'Rename me', name: 'Renamed', truncated: false,
      entities: { hashtags: [], symbols: [], urls: [], user_mentions: [] }, source: 'Plaza Demo', in_reply_to_status_id: null,
      in_reply_to_status_id_str: null, in_reply_to_user_id: null, in_reply_to_user_id_str: null, in_reply_to_screen_name: null,
      user: adaV1User(d.user), // the v1.1 user object
      geo: null, coordinates: null, place: null, contributors: null, retweet_count: 0, favorite_count: 0, favorited: false, retweeted: false,
      scopes: { followers: false }, lang: 'und', card_uri: null, media_keys: [], conversation_settings: 'EVERYONE', nullcast: true,
      post_type: 'PUBLISHED', scheduled_at: null, scheduled_status: null, full_text: 'Rename me', display_text_range: [0, 9], post_id: '<post>',
    },
  });
  assert.equal((await k.sandbox.put(`/12/accounts/${account}/posts/${made.id}/name`, { query: { name: 'n'.repeat(81) } })).body.errors[0].parameter, 'name');
  assert.equal((await k.sandbox.put(`/12/accounts/${account}/posts/${made.id}/name`, { query: { name: '' } })).body.data.name, null);
  const platformPost = k.plaza.creds.sample.post_ids[0];
  assert.equal((await k.sandbox.put(`/12/accounts/${account}/posts/${platformPost}/name`, { query: { name: 'x' } })).status, 404, 'only posts made through the ads interface');
  assert.equal((await k.sandbox.put(`/12/accounts/${account}/posts/abc/name`, { query: { name: 'x' } })).status, 404);
});

test('scheduled posts (reference §3): scheduled_at required, at most a year ahead, seconds ignored; PUT changes only what is given; GET; DELETE is a hard delete', async () => {
  const base = `/12/accounts/${account}/scheduled_posts`;
  const ahead = (ms: number) => new Date(k.clock.now().getTime() + ms).toISOString();
  assert.equal((await k.sandbox.post(base, { query: { as_user_id: adaId, text: 'x' } })).body.errors[0].parameter, 'scheduled_at');
  assert.equal((await k.sandbox.post(base, { query: { as_user_id: adaId, text: 'x', scheduled_at: ahead(-60_000) } })).body.errors[0].parameter, 'scheduled_at');
  assert.equal((await k.sandbox.post(base, { query: { as_user_id: adaId, text: 'x', scheduled_at: ahead(400 * 86_400_000) } })).body.errors[0].parameter, 'scheduled_at');
  assert.equal((await k.sandbox.post(base, { query: { as_user_id: adaId, scheduled_at: ahead(3_600_000) } })).body.errors[0].parameter, 'text');
  const at = '2099-01-01T10:30:45Z';
  const far = await k.sandbox.post(base, { query: { as_user_id: adaId, text: 'x', scheduled_at: at } });
  assert.equal(far.status, 400, 'more than a year ahead');
  const soon = ahead(2 * 3_600_000).replace(/\.\d+Z$/, 'Z');
  const made = await k.sandbox.post(base, { query: { as_user_id: adaId, text: 'Later', scheduled_at: soon, card_uri: cardUri, name: 'Sched' } });
  assert.equal(made.status, 200, made.text);
  const d = made.body.data;
  assert.deepEqual(normalise(made.body, { [account]: 'account', [adaId]: 'ada', [d.id]: 'scheduled_post', [cardUri]: 'card_uri' }), {
    request: { params: { account_id: '<account>', as_user_id: '<ada>', text: 'Later', card_uri: '<card_uri>', name: 'Sched', scheduled_at: '<time>' } },
    data: {
      id: '<scheduled_post>', name: 'Sched', text: 'Later', user_id: '<ada>', scheduled_status: 'SCHEDULED', nullcast: true,
      scheduled_at: '<time>', completed_at: null, card_uri: '<card_uri>', post_id: null, media_keys: [], created_at: '<time>',
      updated_at: '<time>',
    },
  });
  assert.equal(d.scheduled_at, soon.replace(/:\d\dZ$/, ':00Z'), 'seconds are ignored');
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(d), ['id', 'name', 'text', 'user_id', 'scheduled_status', 'nullcast', 'scheduled_at', 'completed_at', 'card_uri', 'post_id', 'media_keys', 'created_at', 'updated_at']);
  const put = await k.sandbox.put(`${base}/${d.id}`, { query: { text: 'Later, edited', card_uri: '' } });
  assert.equal(put.body.data.text, 'Later, edited');
  assert.equal(put.body.data.card_uri, null, 'an empty value unsets card_uri');
  assert.equal(put.body.data.name, 'Sched');
  assert.deepEqual((await k.sandbox.get(`${base}/${d.id}`)).body.data, put.body.data);
  assert.ok((await k.sandbox.get(base)).body.data.some((s: any) => s.id === d.id));
  const del = await k.sandbox.del(`${base}/${d.id}`);
  assert.equal(del.status, 200);
  assert.equal((await k.sandbox.get(`${base}/${d.id}`)).status, 404);
  const row = await k.plaza.ctx.store.db.selectFrom('ads_scheduled_posts').select('id').where('id', '=', d.id).executeTakeFirst();
  assert.equal(row, undefined, 'hard delete');
});

test('scheduled posts are published by the injected clock: when scheduled_at comes the post is made and scheduled_status becomes COMPLETED with its post_id', async () => {
  const base = `/12/accounts/${account}/scheduled_posts`;
  const at = new Date(k.clock.now().getTime() + 10 * 60_000).toISOString();
  const made = (await k.sandbox.post(base, { query: { as_user_id: adaId, text: 'Published by the clock', scheduled_at: at, nullcast: false } })).body.data;
  assert.equal(made.scheduled_status, 'SCHEDULED');
  k.clock.offsetMs += 11 * 60_000;
  // The publisher looks for due posts every second of real time.
  const current = await eventually(async () => {
    const now = (await k.sandbox.get(`${base}/${made.id}`)).body.data;
    return now.scheduled_status !== 'SCHEDULED' && now;
  }, 'the scheduled post to be published', 15_000);
  assert.equal(current.scheduled_status, 'COMPLETED');
  assert.match(current.post_id, /^[0-9]+$/);
  assert.ok(current.completed_at);
  const post = await c.p.get(`/2/posts/${current.post_id}`, { auth: c.p.appAuth });
  assert.equal(post.body.data.text, 'Published by the clock');
  assert.ok((await timelines('ada')).own.includes(current.post_id), 'nullcast=false: on the timeline');
  assert.equal((await k.sandbox.put(`${base}/${made.id}`, { query: { text: 'too late' } })).status, 400, 'a published post is no longer changed');
});

test('draft posts (reference §3): as_user_id required, same content rules, PUT, GET, list, hard DELETE', async () => {
  const base = `/12/accounts/${account}/draft_posts`;
  assert.equal((await k.sandbox.post(base, { query: { text: 'x' } })).body.errors[0].parameter, 'as_user_id');
  assert.equal((await k.sandbox.post(base, { query: { as_user_id: adaId, media_keys: images.join(',') } })).body.errors[0].parameter, 'media_keys');
  const made = await k.sandbox.post(base, { query: { as_user_id: adaId, text: 'Draft', media_keys: images[0] } });
  assert.equal(made.status, 200, made.text);
  assert.deepEqual(normalise(made.body, { [account]: 'account', [adaId]: 'ada', [made.body.data.id]: 'draft_post', [images[0]]: 'image' }), {
    request: { params: { account_id: '<account>', as_user_id: '<ada>', text: 'Draft', media_keys: ['<image>'] } },
    data: {
      id: '<draft_post>', name: null, text: 'Draft', user_id: '<ada>', nullcast: true, card_uri: null, media_keys: ['<image>'], created_at: '<time>',
      updated_at: '<time>',
    },
  });
  // deepEqual does not compare the order of keys.
  assert.deepEqual(Object.keys(made.body.data), ['id', 'name', 'text', 'user_id', 'nullcast', 'card_uri', 'media_keys', 'created_at', 'updated_at']);
  const put = await k.sandbox.put(`${base}/${made.body.data.id}`, { query: { media_keys: '', text: 'Draft 2' } });
  assert.deepEqual(put.body.data.media_keys, []);
  assert.equal((await k.sandbox.put(`${base}/${made.body.data.id}`, { query: { text: '' } })).body.errors[0].parameter, 'text', 'still needs text or media');
  assert.equal((await k.sandbox.get(base)).body.data.length, 1);
  assert.equal((await k.sandbox.del(`${base}/${made.body.data.id}`)).body.data.text, 'Draft 2');
  assert.equal((await k.sandbox.get(`${base}/${made.body.data.id}`)).status, 404);
  assert.equal((await k.sandbox.del(`${base}/${made.body.data.id}`)).status, 404);
});

test('the demo seed gives each demo ads account a media library with an image and a video, a card and a promoted post', async () => {
  for (const u of k.plaza.creds.users) {
    const acc = u.ads_account_ids[0];
    const as = u.username;
    const library = (await k.ads.get(`/12/accounts/${acc}/media_library`, { as })).body.data;
    assert.deepEqual(library.map((m: any) => m.media_type).sort(), ['IMAGE', 'VIDEO'], as);
    const cards = (await k.ads.get(`/12/accounts/${acc}/cards`, { as })).body.data;
    assert.equal(cards.length, 1, as);
    const posts = (await k.ads.get(`/12/accounts/${acc}/posts`, { as, query: { post_type: 'PUBLISHED' } })).body.data;
    assert.equal(posts.length, 1, as);
    assert.equal(posts[0].card_uri, cards[0].card_uri);
    assert.equal(posts[0].nullcast, true);
    const promoted = (await k.ads.get(`/12/accounts/${acc}/promoted_posts`, { as })).body.data;
    assert.ok(promoted.some((p: any) => p.post_id === posts[0].id), `${as}: the post is promoted`);
  }
});

test('the public platform\'s paths work for the SDKs: POST …/tweet (tweet_mode), PUT …/tweets/:tweet_id/name, scheduled_tweets and draft_tweets, answered with tweet_type and tweet_id', async () => {
  const made = await k.sandbox.post(`/12/accounts/${account}/tweet`, { query: { as_user_id: adaId, text: 'Via the tweet path', tweet_mode: 'extended' } });
  assert.equal(made.status, 200, made.text);
  assert.equal(made.body.data.full_text, 'Via the tweet path');
  const renamed = await k.sandbox.put(`/12/accounts/${account}/tweets/${made.body.data.id}/name`, { query: { name: 'Tweet name' } });
  assert.deepEqual(normalise(renamed.body, { [account]: 'account', [adaId]: 'ada', [made.body.data.id]: 'post' }), {
    request: { params: { account_id: '<account>', tweet_id: '<post>', name: 'Tweet name' } },
    data: {
      created_at: '<v1-time>', id: '<post>', id_str: '<post>', text: 'Via the tweet path', name: 'Tweet name', truncated: false,
      entities: { hashtags: [], symbols: [], urls: [], user_mentions: [] }, source: 'Plaza Demo', in_reply_to_status_id: null,
      in_reply_to_status_id_str: null, in_reply_to_user_id: null, in_reply_to_user_id_str: null, in_reply_to_screen_name: null,
      user: adaV1User(renamed.body.data.user), // the v1.1 user object
      geo: null, coordinates: null, place: null, contributors: null, retweet_count: 0, favorite_count: 0, favorited: false, retweeted: false,
      scopes: { followers: false }, lang: 'und', card_uri: null, media_keys: [], conversation_settings: 'EVERYONE', nullcast: true,
      tweet_type: 'PUBLISHED', scheduled_at: null, scheduled_status: null, full_text: 'Via the tweet path', display_text_range: [0, 18],
      tweet_id: '<post>',
    },
  });
  assert.equal((await k.sandbox.get(`/12/accounts/${account}/tweets`, { query: { tweet_type: 'PUBLISHED', tweet_ids: made.body.data.id } })).body.data[0].name, 'Tweet name');
  const at = new Date(k.clock.now().getTime() + 3_600_000).toISOString();
  const scheduled = await k.sandbox.post(`/12/accounts/${account}/scheduled_tweets`, { query: { as_user_id: adaId, text: 'Scheduled tweet', scheduled_at: at } });
  assert.equal(scheduled.status, 200, scheduled.text);
  assert.ok('tweet_id' in scheduled.body.data);
  assert.equal((await k.sandbox.get(`/12/accounts/${account}/scheduled_posts/${scheduled.body.data.id}`)).body.data.text, 'Scheduled tweet', 'one store behind both names');
  assert.equal((await k.sandbox.del(`/12/accounts/${account}/scheduled_tweets/${scheduled.body.data.id}`)).status, 200);
  assert.equal((await k.sandbox.post(`/12/accounts/${account}/draft_tweets`, { query: { as_user_id: adaId, text: 'Draft tweet' } })).status, 200);
});

test('GET accounts/:account_id/posts takes post_type (required: DRAFT, PUBLISHED, SCHEDULED), timeline_type (ALL, NULLCAST by default, ORGANIC), user_id, name, trim_user echoed as a boolean', async () => {
  const list = (query: Record<string, string | number | boolean>) => k.sandbox.get(`/12/accounts/${account}/posts`, { query });
  const missing = await list({});
  assert.equal(missing.status, 400, missing.text);
  assert.equal(missing.body.errors[0].parameter, 'post_type');
  assert.equal((await list({ post_type: 'LIVE' })).body.errors[0].parameter, 'post_type');
  assert.equal((await list({ post_type: 'PUBLISHED', timeline_type: 'SOME' })).body.errors[0].parameter, 'timeline_type');

  const tag = `tl${Date.now()}`;
  const promotedOnly = await make({ text: `${tag} promoted only`, name: `${tag} promoted` });
  const organic = await make({ text: `${tag} organic`, name: `${tag} organic`, nullcast: false });
  assert.equal(organic.status, 200, organic.text);
  const ids = `${promotedOnly.body.data.id},${organic.body.data.id}`;
  const idsOf = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((p) => p.id).sort();
  assert.deepEqual(idsOf(await list({ post_type: 'PUBLISHED', post_ids: ids })), [promotedOnly.body.data.id], 'promoted-only posts by default');
  assert.deepEqual(idsOf(await list({ post_type: 'PUBLISHED', post_ids: ids, timeline_type: 'ORGANIC' })), [organic.body.data.id]);
  assert.deepEqual(idsOf(await list({ post_type: 'PUBLISHED', post_ids: ids, timeline_type: 'ALL' })), [promotedOnly.body.data.id, organic.body.data.id].sort());
  assert.deepEqual(idsOf(await list({ post_type: 'PUBLISHED', timeline_type: 'ALL', name: `${tag.toUpperCase()} ORG` })), [organic.body.data.id], 'name: a case-insensitive prefix');
  assert.deepEqual(idsOf(await list({ post_type: 'PUBLISHED', post_ids: ids, timeline_type: 'ALL', user_id: brunoId })), []);

  const trimmed = await list({ post_type: 'PUBLISHED', post_ids: promotedOnly.body.data.id, trim_user: 'true' });
  assert.equal(trimmed.status, 200, trimmed.text);
  assert.deepEqual(trimmed.body.request.params, { account_id: account, post_type: 'PUBLISHED', post_ids: [promotedOnly.body.data.id], trim_user: true });
  const [one] = trimmed.body.data;
  assert.deepEqual(one.user, { id: adaId, id_str: adaId });
  assert.equal(normalise(one.created_at), '<v1-time>');
  assert.equal(one.post_type, 'PUBLISHED');

  // Scheduled and draft posts, each in its own object, marked with the type asked for.
  const at = new Date(k.clock.now().getTime() + 3_600_000).toISOString();
  const scheduled = await k.sandbox.post(`/12/accounts/${account}/scheduled_posts`, { query: { as_user_id: adaId, text: `${tag} later`, scheduled_at: at } });
  const draft = await k.sandbox.post(`/12/accounts/${account}/draft_posts`, { query: { as_user_id: adaId, text: `${tag} draft` } });
  const scheduledList = await list({ post_type: 'SCHEDULED', post_ids: scheduled.body.data.id });
  assert.deepEqual(scheduledList.body.data.map((p: any) => [p.id, p.post_type, p.text]), [[scheduled.body.data.id, 'SCHEDULED', `${tag} later`]]);
  const draftList = await list({ post_type: 'DRAFT', post_ids: draft.body.data.id });
  assert.deepEqual(draftList.body.data.map((p: any) => [p.id, p.post_type, p.text]), [[draft.body.data.id, 'DRAFT', `${tag} draft`]]);

  // The public platform's names, as its SDK sends them (its recorded fixture: tweet_type, tweet_ids, trim_user true).
  const sdk = await k.sandbox.get(`/12/accounts/${account}/tweets`, { query: { tweet_ids: promotedOnly.body.data.id, tweet_type: 'PUBLISHED', trim_user: 'true' } });
  assert.equal(sdk.status, 200, sdk.text);
  assert.deepEqual(sdk.body.request.params, { account_id: account, tweet_ids: [promotedOnly.body.data.id], tweet_type: 'PUBLISHED', trim_user: true });
  assert.equal(sdk.body.data[0].tweet_type, 'PUBLISHED');
  assert.equal(sdk.body.data[0].tweet_id, promotedOnly.body.data.id);
});
