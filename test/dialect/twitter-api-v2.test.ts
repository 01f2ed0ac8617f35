import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { ApiResponseError, type TwitterApi, ETwitterStreamEvent, EUploadMimeType, TwitterV2IncludesHelper, type TweetV2SingleStreamResult } from 'twitter-api-v2';
import { OffsetClock } from '../../src/clock.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { sdkClients } from './support.js';
import { mp4, png } from '../support/media-files.js';

/**
 * twitter-api-v2, unchanged, with only its host moved to Plaza (issue 15). A failure here is a bug
 * in Plaza unless the test's name says the client is wrong about the public platform.
 */

let plaza: TestPlaza;
let c: ReturnType<typeof sdkClients>;
let withMedia: string, reply: string, quote: string;
/** Runs with real time (OAuth 1.0a timestamps are checked against it); moved on where a rule waits (search's default end_time lag). */
const clock = new OffsetClock();

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  c = sdkClients(plaza);
  [withMedia, reply, quote] = plaza.creds.sample.post_ids;
});

test('appLogin (POST /oauth2/token with the consumer keys) gives a bearer client; singleTweet with tweet.fields and expansions is answered in the tweet dialect (edit_history_tweet_ids, referenced_tweets, includes.tweets, includes.users)', async () => {
  const app = await c.consumerKeys().appLogin();
  const res = await app.v2.singleTweet(quote, {
    'tweet.fields': ['created_at', 'referenced_tweets', 'public_metrics', 'edit_history_tweet_ids'],
    expansions: ['referenced_tweets.id', 'referenced_tweets.id.author_id', 'author_id'],
    'user.fields': ['public_metrics'],
  });
  assert.equal(res.data.id, quote);
  assert.deepEqual(res.data.edit_history_tweet_ids, [quote]);
  assert.equal(res.data.referenced_tweets?.[0].type, 'quoted');
  const quoted = res.data.referenced_tweets![0].id;
  assert.ok(res.includes?.tweets?.some((t) => t.id === quoted), 'the quoted post is in includes.tweets');
  assert.equal(typeof res.includes?.users?.[0].public_metrics?.tweet_count, 'number', 'users say tweet_count');
  assert.equal((res as unknown as { includes: Record<string, unknown> }).includes.posts, undefined);
  // The helper the SDK gives for includes reads includes.tweets.
  assert.equal(res.includes && app.v2 ? res.includes.tweets!.length : 0, 1);
});

test('tweets lookup (GET /2/tweets?ids=) with a bearer token: every id found, attachments.media_keys expanded into includes.media', async () => {
  const res = await c.bearer().v2.tweets([withMedia, reply], { expansions: ['attachments.media_keys', 'referenced_tweets.id'], 'media.fields': ['type'] });
  assert.deepEqual(res.data.map((t) => t.id).sort(), [withMedia, reply].sort());
  assert.ok(res.includes?.media?.length, JSON.stringify(res));
  assert.ok(res.includes?.tweets?.length, 'the replied-to post in includes.tweets');
});

test('a missing tweet: the SDK sees partial errors with resource_type "tweet" (200 with errors, as the public platform answers lookups)', async () => {
  const res = await c.bearer().v2.singleTweet('1234567890123456789');
  assert.equal(res.data, undefined);
  assert.equal(res.errors?.[0].resource_type, 'tweet');
  assert.equal(res.errors?.[0].parameter, 'id');
});

test('a bad tweet.fields value is an ApiResponseError 400 whose problem names `tweet.fields`, not post.fields', async () => {
  await assert.rejects(
    () => c.bearer().v2.singleTweet(quote, { 'tweet.fields': ['nope' as 'id'] }),
    (err: unknown) => {
      assert.ok(err instanceof ApiResponseError);
      assert.equal(err.code, 400);
      const text = JSON.stringify(err.data);
      assert.match(text, /tweet\.fields/);
      assert.doesNotMatch(text, /post\.fields|edit_history_post_ids/);
      return true;
    },
  );
});

async function postReplyDelete(client: TwitterApi, username: string, mentioner: TwitterApi) {
  const me = await client.v2.me({ 'user.fields': ['public_metrics'] });
  assert.equal(me.data.username, username);
  const posted = await client.v2.tweet(`Hello from twitter-api-v2 as @${username} ${Date.now()}`);
  assert.match(posted.data.id, /^[0-9]+$/);
  assert.deepEqual((posted.data as { edit_history_tweet_ids?: string[] }).edit_history_tweet_ids, [posted.data.id]);
  // Rule 1 (summoning): a self-serve app replies only where it was summoned, so the other account mentions this one first.
  const summons = await mentioner.v2.tweet(`@${username} what do you think? ${Date.now()}`);
  const replied = await client.v2.reply('Thanks for asking!', summons.data.id);
  const read = await client.v2.singleTweet(replied.data.id, { 'tweet.fields': ['referenced_tweets', 'in_reply_to_user_id', 'conversation_id'] });
  assert.deepEqual(read.data.referenced_tweets, [{ type: 'replied_to', id: summons.data.id }]);
  assert.equal(read.data.conversation_id, summons.data.id);
  const deleted = await client.v2.deleteTweet(posted.data.id);
  assert.deepEqual(deleted.data, { deleted: true });
  const gone = await client.v2.singleTweet(posted.data.id);
  assert.equal(gone.errors?.[0].resource_type, 'tweet');
  await client.v2.deleteTweet(replied.data.id);
  await mentioner.v2.deleteTweet(summons.data.id);
}

test('OAuth 1.0a user context (the signature covers the URL as sent, /2/tweets): me, tweet, reply to a summoning post, deleteTweet', async () => {
  await postReplyDelete(c.oauth1('ada'), 'ada', c.enterpriseOAuth1('dana'));
});

test('OAuth 2.0 user context: me, tweet, reply to a summoning post, deleteTweet', async () => {
  await postReplyDelete(c.oauth2('chen'), 'chen', c.enterpriseOAuth2('dana'));
});

test('userTimeline (GET /2/users/:id/tweets) and homeTimeline paginators walk every page by next_token without repeating a post', async () => {
  const client = c.oauth2('dana');
  const dana = c.user('dana');
  for (let i = 0; i < 5; i++) await client.v2.tweet(`timeline filler ${i} ${Date.now()}`);
  const timeline = await client.v2.userTimeline(dana.id, { max_results: 5, 'tweet.fields': ['created_at'] });
  const seen = [...timeline.tweets.map((t) => t.id)];
  assert.equal(seen.length, 5);
  assert.ok(!timeline.done);
  await timeline.fetchLast(10);
  const all = timeline.tweets.map((t) => t.id);
  assert.equal(new Set(all).size, all.length, 'no post twice');
  assert.ok(all.length >= 8, `dana's posts: ${all.length}`);
  assert.ok(timeline.done);

  const home = await client.v2.homeTimeline({ max_results: 5, 'tweet.fields': ['author_id'], expansions: ['author_id'] });
  assert.ok(home.tweets.length > 0);
  const first = home.tweets.map((t) => t.id);
  if (!home.done) {
    const next = await home.next();
    assert.ok(next.tweets.every((t) => !first.includes(t.id)));
  }
  assert.ok(home.includes.users.length > 0, 'includes.users through the paginator');
});

test('search (GET /2/tweets/search/recent): the paginator finds posts by a word, with tweet.fields', async () => {
  const client = c.oauth2('ada');
  const word = `plazasdk${Date.now()}`;
  const made = await client.v2.tweet(`searching for ${word}`);
  // Search's default end_time is 30 seconds before the request: the post is found once that has passed.
  clock.offsetMs += 31_000;
  const found = await c.bearer().v2.search(word, { 'tweet.fields': ['author_id', 'edit_history_tweet_ids'] });
  assert.deepEqual(found.tweets.map((t) => t.id), [made.data.id]);
  assert.equal(found.tweets[0].author_id, c.user('ada').id);
  assert.equal(found.meta.result_count, 1);
});

test('likes, retweets and follows on the enterprise app (OAuth 1.0a and 2.0): like/unlike {liked}, retweet/unretweet {retweeted}, follow {following}; likedTweets and tweetRetweetedBy read them back', async () => {
  const chen = c.user('chen');
  const client = c.enterpriseOAuth2('chen');
  const liked = await client.v2.like(chen.id, quote);
  assert.deepEqual(liked.data, { liked: true });
  const likes = await client.v2.userLikedTweets(chen.id);
  assert.ok(likes.tweets.some((t) => t.id === quote));
  const liking = await client.v2.tweetLikedBy(quote);
  assert.ok(liking.data.some((u) => u.id === chen.id));
  assert.deepEqual((await client.v2.unlike(chen.id, quote)).data, { liked: false });

  const oauth1 = c.enterpriseOAuth1('chen');
  const retweeted = await oauth1.v2.retweet(chen.id, withMedia);
  assert.equal(retweeted.data.retweeted, true);
  const by = await oauth1.v2.tweetRetweetedBy(withMedia);
  assert.ok(by.data.some((u) => u.id === chen.id));
  assert.deepEqual((await oauth1.v2.unretweet(chen.id, withMedia)).data, { retweeted: false });

  const ada = c.user('ada');
  const followed = await oauth1.v2.follow(chen.id, ada.id);
  assert.equal(followed.data.following, true);
  const following = await oauth1.v2.following(chen.id);
  assert.ok(following.data.some((u) => u.id === ada.id));
  assert.deepEqual((await oauth1.v2.unfollow(chen.id, ada.id)).data, { following: false });
});

test('DMs: sendDmToParticipant, then listDmEventsWithParticipant reads the message back (the client is wrong about the public platform: its result type lacks the `data` envelope the platform answers with)', async () => {
  const sender = c.oauth2('plazanews');
  const dana = c.user('dana');
  const text = `dm through the SDK ${Date.now()}`;
  const sent = (await sender.v2.sendDmToParticipant(dana.id, { text })) as unknown as { data: { dm_event_id: string; dm_conversation_id: string } };
  assert.match(sent.data.dm_event_id, /^[0-9]+$/);
  const events = await c.oauth2('dana').v2.listDmEventsWithParticipant(c.user('plazanews').id, { 'dm_event.fields': ['text', 'sender_id'] });
  assert.ok(events.events.some((e) => e.id === sent.data.dm_event_id && 'text' in e && e.text === text));
});

test('media upload through v1.1 (upload.x.com/1.1/media/upload.json: INIT, APPEND, FINALIZE in multipart, OAuth 1.0a): the media id posts with the photo attached', async () => {
  const client = c.oauth1('ada');
  const mediaId = await client.v1.uploadMedia(png(64, 32), { mimeType: EUploadMimeType.Png });
  assert.match(mediaId, /^[0-9]+$/);
  const posted = await client.v2.tweet({ text: `a photo through v1.1 ${Date.now()}`, media: { media_ids: [mediaId] } });
  const read = await client.v2.singleTweet(posted.data.id, { expansions: ['attachments.media_keys'], 'media.fields': ['width', 'height', 'type'] });
  assert.equal(read.includes?.media?.[0].type, 'photo');
  assert.equal(read.includes?.media?.[0].width, 64);
});

test('media upload through v1.1 in several chunks (a video, 3 APPENDs) with the full FINALIZE answer: media_id_string, size, video.video_type', async () => {
  const client = c.oauth1('chen');
  const video = mp4({ width: 320, height: 240, durationMs: 3000, payload: 300_000 });
  const full = (await client.v1.uploadMedia(video, { mimeType: EUploadMimeType.Mp4, chunkLength: 128 * 1024 }, true)) as unknown as Record<string, any>;
  assert.match(full.media_id_string, /^[0-9]+$/);
  assert.equal(full.size, video.length);
  assert.equal(full.video?.video_type, 'video/mp4');
  const info = await client.v1.mediaInfo(full.media_id_string);
  assert.equal(info.processing_info?.state, 'succeeded');
});

test('filtered stream: updateStreamRules and streamRules (/2/tweets/search/stream/rules), then searchStream delivers a matching reply as a tweet-dialect line (referenced_tweets, includes.tweets, matching_rules); the test closes the stream', async () => {
  const app = c.bearer();
  const word = `streamword${Date.now()}`;
  const added = await app.v2.updateStreamRules({ add: [{ value: word, tag: 'sdk' }] });
  assert.equal(added.meta.summary?.created, 1);
  const rules = await app.v2.streamRules();
  assert.ok(rules.data.some((r) => r.value === word));
  const stream = await app.v2.searchStream({ 'tweet.fields': ['referenced_tweets', 'author_id'], expansions: ['referenced_tweets.id'], autoConnect: true });
  stream.autoReconnect = false;
  try {
    const arrived = new Promise<TweetV2SingleStreamResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no line within 10 s')), 10_000);
      stream.on(ETwitterStreamEvent.Data, (line) => {
        clearTimeout(timer);
        resolve(line);
      });
      stream.on(ETwitterStreamEvent.Error, (err) => {
        clearTimeout(timer);
        reject(err.error);
      });
    });
    const made = await c.enterpriseOAuth2('dana').v2.reply(`${word} on the stream`, reply);
    const line = await arrived;
    assert.equal(line.data.id, made.data.id);
    assert.equal(line.data.referenced_tweets?.[0].type, 'replied_to');
    assert.ok(line.includes?.tweets?.some((t) => t.id === reply), 'includes.tweets');
    assert.equal(line.matching_rules[0].tag, 'sdk');
  } finally {
    stream.close();
  }
  await app.v2.updateStreamRules({ delete: { ids: added.data.map((r) => r.id) } });
});

test('with the app in the tweet dialect (as the README tells SDK users): v2.user reads public_metrics.tweet_count, includes.author(tweet) finds the author of singleTweet with expansions=author_id and no tweet.fields, v1.createMediaMetadata sets alt text (issue 34)', async () => {
  const admin = { authorization: `Bearer ${plaza.creds.admin_token}` };
  const setDialect = (dialect: string) => fetch(`${plaza.urls.base_url}/admin/apps/${c.selfServe.id}`, { method: 'PATCH', headers: { ...admin, 'content-type': 'application/json' }, body: JSON.stringify({ dialect }) });
  assert.equal((await setDialect('tweet')).status, 200);
  try {
    const dana = c.user('dana');
    const user = await c.bearer().v2.user(dana.id, { 'user.fields': ['public_metrics'] });
    assert.equal(typeof user.data.public_metrics?.tweet_count, 'number');
    const single = await c.bearer().v2.singleTweet(quote, { expansions: ['author_id'] });
    assert.deepEqual(single.data.edit_history_tweet_ids, [quote], 'a default field in the tweet dialect');
    const includes = new TwitterV2IncludesHelper(single);
    assert.equal(includes.author(single.data)?.username, 'dana');

    const client = c.oauth1('ada');
    const mediaId = await client.v1.uploadMedia(png(32, 32), { mimeType: EUploadMimeType.Png });
    await client.v1.createMediaMetadata(mediaId, { alt_text: { text: 'a small square' } });
    const posted = await client.v2.tweet({ text: `alt text through v1.1 ${Date.now()}`, media: { media_ids: [mediaId] } });
    const read = await client.v2.singleTweet(posted.data.id, { expansions: ['attachments.media_keys'], 'media.fields': ['alt_text'] });
    assert.equal(read.includes?.media?.[0].alt_text, 'a small square');
    await assert.rejects(() => client.v1.createMediaMetadata('1234567890', { alt_text: { text: 'nothing' } }), (err: ApiResponseError) => err.code === 400 && (err.data as { errors: Array<{ code: number }> }).errors[0].code === 324);
  } finally {
    await setDialect('post');
  }
});
