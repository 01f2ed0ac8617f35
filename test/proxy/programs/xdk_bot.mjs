// A bot written with @xdevplatform/xdk (the public platform's own TypeScript SDK), as its user would.
//
// Nothing in it knows about Plaza: the client calls https://api.x.com with Node's fetch as always
// (no baseUrl). test/proxy/sdk-drop-in.test.ts runs it as
// `node --import <Plaza's node preload> xdk_bot.mjs`, which sends that host through Plaza's
// drop-in proxy and trusts Plaza's certificate authority.
//
// Credentials come in the environment; the results go out as one JSON object on stdout. Progress
// goes to stderr, one line a step. Any error ends the program with a non-zero status.
//
// xdk answers in camel case (editHistoryTweetIds); the output below uses the wire's names.
// xdk has no v1.1 media upload: its media.upload is POST /2/media/upload (base64 in JSON), which
// this bot uses instead.
import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { Client, OAuth1 } from '@xdevplatform/xdk';

const env = process.env;
const word = `xdkbot${Date.now()}`;
const out = {};
const log = (message) => process.stderr.write(`${message}\n`);

// The app (bearer token) reads; the user (OAuth 1.0a user context) writes.
const app = new Client({ bearerToken: env.BEARER_TOKEN });
const user = new Client({
  oauth1: new OAuth1({ apiKey: env.CONSUMER_KEY, apiSecret: env.CONSUMER_SECRET, callback: 'oob', accessToken: env.ACCESS_TOKEN, accessTokenSecret: env.ACCESS_TOKEN_SECRET }),
});

// Post, then read the post back with its author expanded.
const posted = await user.posts.create({ text: `hello from an xdk bot ${word}` });
const postId = posted.data.id;
log(`posted ${postId}`);
const read = await app.posts.getById(postId, { expansions: ['author_id'], tweetFields: ['created_at', 'author_id'], userFields: ['username'] });
out.posted = postId;
out.read = {
  id: read.data.id,
  edit_history_tweet_ids: read.data.editHistoryTweetIds,
  includes_users: (read.includes?.users ?? []).map((u) => u.username),
};

// Recent search: a new post is searchable once the index has caught up (30 seconds on the public
// platform), so the bot asks again until the post is there, for a minute at most.
let found = [];
for (const deadline = Date.now() + 60_000; ; await delay(250)) {
  const result = await app.posts.searchRecent(word);
  found = (result.data ?? []).map((t) => t.id);
  if (found.includes(postId) || Date.now() > deadline) break;
}
out.search = found;

// A like, by another account through an app that may like (OAuth 1.0a user context).
const liker = new Client({
  oauth1: new OAuth1({
    apiKey: env.LIKER_CONSUMER_KEY,
    apiSecret: env.LIKER_CONSUMER_SECRET,
    callback: 'oob',
    accessToken: env.LIKER_ACCESS_TOKEN,
    accessTokenSecret: env.LIKER_ACCESS_TOKEN_SECRET,
  }),
});
const likerMe = await liker.users.getMe();
out.liked = (await liker.users.likePost(likerMe.data.id, { tweetId: postId })).data.liked;

// The filtered stream: a rule for the word, a connection, a new post with the word, which arrives.
const added = await app.stream.updateRules({ add: [{ value: word, tag: 'xdk bot' }] });
const connection = new AbortController();
const stream = await app.stream.posts({ tweetFields: ['author_id'], signal: connection.signal });
log('stream connected');
let timer;
let streamedPost, received;
try {
  const arrived = new Promise((resolve, reject) => {
    timer = setTimeout(() => reject(new Error('no post on the stream within 15 s')), 15_000);
    stream.on('data', (line) => {
      if (line?.data?.id) resolve(line.data.id);
    });
    stream.on('error', (e) => reject(e.error ?? e));
    stream.on('close', () => reject(new Error('the stream closed before a post arrived')));
  });
  arrived.catch(() => undefined); // awaited below, once the post is made
  streamedPost = (await user.posts.create({ text: `on the stream: ${word}` })).data.id;
  received = await arrived;
} finally {
  clearTimeout(timer);
  stream.close();
  connection.abort();
}
await app.stream.updateRules({ delete: { ids: added.data.map((r) => r.id) } });
out.stream = { posted: streamedPost, received: [received] };

// Media upload: POST /2/media/upload (xdk's only upload), OAuth 1.0a user context.
const media = await user.media.upload({ media: fs.readFileSync(env.PHOTO).toString('base64'), mediaCategory: 'tweet_image' });
out.media = { media_id: media.data.id, media_key: media.data.mediaKey };

process.stdout.write(JSON.stringify(out));
