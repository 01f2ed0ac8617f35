// A bot written with twitter-api-v2 for the public platform, as its user would.
//
// Nothing in it knows about Plaza: the client calls https://api.x.com (and api.twitter.com,
// upload.twitter.com) with Node's https as always. test/proxy/sdk-drop-in.test.ts runs it as
// `node --import <Plaza's node preload> twitter_api_v2_bot.mjs`, which sends those hosts through
// Plaza's drop-in proxy and trusts Plaza's certificate authority.
//
// Credentials come in the environment; the results go out as one JSON object on stdout. Progress
// goes to stderr, one line a step. Any error ends the program with a non-zero status.
import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { ETwitterStreamEvent, EUploadMimeType, TwitterApi } from 'twitter-api-v2';

const env = process.env;
const word = `tapibot${Date.now()}`;
const out = {};
const log = (message) => process.stderr.write(`${message}\n`);

// The app (bearer token) reads; the user (OAuth 2.0 user context) writes.
const app = new TwitterApi(env.BEARER_TOKEN);
const user = new TwitterApi(env.OAUTH2_USER_TOKEN);

// Post, then read the post back with its author expanded.
const posted = await user.v2.tweet(`hello from a twitter-api-v2 bot ${word}`);
const postId = posted.data.id;
log(`posted ${postId}`);
const read = await app.v2.singleTweet(postId, { expansions: ['author_id'], 'tweet.fields': ['created_at', 'author_id'], 'user.fields': ['username'] });
out.posted = postId;
out.read = {
  id: read.data.id,
  edit_history_tweet_ids: read.data.edit_history_tweet_ids,
  includes_users: (read.includes?.users ?? []).map((u) => u.username),
};

// Recent search: a new post is searchable once the index has caught up (30 seconds on the public
// platform), so the bot asks again until the post is there, for a minute at most.
let found = [];
for (const deadline = Date.now() + 60_000; ; await delay(250)) {
  const result = await app.v2.search(word);
  found = result.tweets.map((t) => t.id);
  if (found.includes(postId) || Date.now() > deadline) break;
}
out.search = found;

// A like, by another account through an app that may like (OAuth 2.0 user context).
const liker = new TwitterApi(env.LIKER_OAUTH2_TOKEN);
const likerMe = await liker.v2.me();
out.liked = (await liker.v2.like(likerMe.data.id, postId)).data.liked;

// The filtered stream: a rule for the word, a connection, a new post with the word, which arrives.
const added = await app.v2.updateStreamRules({ add: [{ value: word, tag: 'twitter-api-v2 bot' }] });
const stream = await app.v2.searchStream({ 'tweet.fields': ['author_id'], autoConnect: true });
stream.autoReconnect = false;
log('stream connected');
let timer;
let streamedPost, received;
try {
  const arrived = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error('no post on the stream within 15 s')), 15_000);
    stream.on(ETwitterStreamEvent.Data, (line) => resolve(line.data.id));
    stream.on(ETwitterStreamEvent.Error, (e) => reject(e.error ?? e));
    stream.on(ETwitterStreamEvent.ConnectionClosed, () => reject(new Error('the stream closed before a post arrived')));
  });
  arrived.catch(() => undefined); // awaited below, once the post is made
  streamedPost = (await user.v2.tweet(`on the stream: ${word}`)).data.id;
  received = await arrived;
} finally {
  clearTimeout(timer);
  stream.close();
}
await app.v2.updateStreamRules({ delete: { ids: added.data.map((r) => r.id) } });
out.stream = { posted: streamedPost, received: [received] };

// Media upload through v1.1 (upload.twitter.com), OAuth 1.0a user context.
const oauth1 = new TwitterApi({ appKey: env.CONSUMER_KEY, appSecret: env.CONSUMER_SECRET, accessToken: env.ACCESS_TOKEN, accessSecret: env.ACCESS_TOKEN_SECRET });
const mediaId = await oauth1.v1.uploadMedia(fs.readFileSync(env.PHOTO), { mimeType: EUploadMimeType.Png });
out.media = { media_id: mediaId };

process.stdout.write(JSON.stringify(out));
