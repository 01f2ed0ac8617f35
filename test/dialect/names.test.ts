import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { LEFT_OUT, NAMES, PATH_SEGMENTS } from '../../src/http/dialect/names.js';
import { bodyToPost, bodyToTweet, messageToTweet, urlToPost } from '../../src/http/dialect/translate.js';

/**
 * The table of name pairs against the public description (shared/reference/openapi-2.167.json)
 * and Plaza's own (openapi/platform.json): nothing of the reference spelled with 'tweet' is
 * forgotten, and every translated path lands on an operation Plaza serves.
 */

const REFERENCE = '/work/shared/reference/openapi-2.167.json';
const reference = fs.existsSync(REFERENCE) ? JSON.parse(fs.readFileSync(REFERENCE, 'utf8')) : undefined;
const plaza = JSON.parse(fs.readFileSync(new URL('../../openapi/platform.json', import.meta.url), 'utf8'));

/** Every key and short identifier-like string of a document containing `word`. */
function wordsOf(doc: unknown, word: RegExp): Set<string> {
  const found = new Set<string>();
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) {
        if (word.test(k) && !k.startsWith('/')) found.add(k);
        walk(v);
      }
    } else if (typeof x === 'string' && word.test(x) && x.length < 60 && !/\s/.test(x) && !x.startsWith('#') && !x.startsWith('/')) found.add(x);
  };
  walk(doc);
  return found;
}

test('every name of the reference spelled with "tweet" is in the table of pairs or in LEFT_OUT with a reason', { skip: reference ? false : `${REFERENCE} is not here` }, () => {
  const known = new Set([...NAMES.map(([t]) => t), ...PATH_SEGMENTS.map(([t]) => t), ...Object.keys(LEFT_OUT)]);
  const forgotten = [...wordsOf(reference, /tweet/i)].filter((w) => !known.has(w));
  assert.deepEqual(forgotten, []);
});

test('every path of the reference with a tweet segment, translated by the table, is a path Plaza serves, or its operation is one Plaza does not serve at all', { skip: reference ? false : `${REFERENCE} is not here` }, () => {
  const served = new Set(Object.keys(plaza.paths).map((p) => p.replace(/\{[^}]+\}/g, '{}')));
  // Operations of the reference that Plaza serves in neither dialect (docs/coverage.md).
  const NOT_SERVED = new Set(['/2/tweets/analytics', '/2/usage/tweets', '/2/spaces/{}/tweets']);
  const missing: string[] = [];
  for (const path of Object.keys(reference.paths)) {
    if (!/tweet/.test(path)) continue;
    const translated = (urlToPost(path) ?? path).replace(/\{[^}]+\}/g, '{}');
    if (!served.has(translated) && !NOT_SERVED.has(path.replace(/\{[^}]+\}/g, '{}'))) missing.push(`${path} -> ${translated}`);
  }
  assert.deepEqual(missing, []);
});

test('the Plaza name of every pair is a name Plaza uses (in its description or its answers): no pair translates to nothing', () => {
  const words = wordsOf(plaza, /post/i);
  // Names the description does not list: fields of kept JSON and events, expansions (a free string in Plaza's description).
  const ANSWER_ONLY = new Set(['referenced_posts.id', 'referenced_posts.id.author_id', 'post', 'liked_post_id', 'liked_post_author_id', 'post_author_id', 'most_recent_post_id', 'referenced_posts.id.attachments.media_keys', 'post_ids', 'reposted', 'total_post_count']);
  const unused = NAMES.map(([, p]) => p).filter((p) => !words.has(p) && !ANSWER_ONLY.has(p));
  assert.deepEqual(unused, []);
});

test('urlToPost: paths, query names and list values in the dialect become Plaza\'s; a URL in the spec\'s words is left alone (undefined)', () => {
  assert.equal(urlToPost('/2/tweets/1?tweet.fields=referenced_tweets,created_at&expansions=referenced_tweets.id.author_id'), '/2/posts/1?post.fields=referenced_posts,created_at&expansions=referenced_posts.id.author_id');
  assert.equal(urlToPost('/2/users/5/liked_tweets'), '/2/users/5/liked_posts');
  assert.equal(urlToPost('/2/tweets/1/retweeted_by'), '/2/posts/1/reposted_by');
  assert.equal(urlToPost('/2/tweets/1/quote_tweets?exclude=retweets'), '/2/posts/1/quote_posts?exclude=retweets');
  assert.equal(urlToPost('/2/users/5/retweets/7'), '/2/users/5/reposts/7');
  assert.equal(urlToPost('/2/users/me?user.fields=pinned_tweet_id&expansions=pinned_tweet_id'), '/2/users/me?user.fields=pinned_post_id&expansions=pinned_post_id');
  assert.equal(urlToPost('/2/tweets/search/recent?query=tweets%20about%20tweet.fields'), '/2/posts/search/recent?query=tweets%20about%20tweet.fields', 'a query\'s text is user content');
  assert.equal(urlToPost('/2/posts/1?post.fields=text'), undefined);
  assert.equal(urlToPost('/2/users/5/followers'), undefined);
});

test('bodies: tweet_id and in_reply_to_tweet_id become Plaza\'s; answers rename members and the known values (retweeted, resource_type tweet) but never user text', () => {
  assert.deepEqual(bodyToPost({ text: 'tweet_id', reply: { in_reply_to_tweet_id: '1' }, quote_tweet_id: '2' }), { text: 'tweet_id', reply: { in_reply_to_post_id: '1' }, quote_post_id: '2' });
  assert.deepEqual(
    bodyToTweet({ data: [{ id: '1', text: 'post_id and posts', referenced_posts: [{ type: 'reposted', id: '2' }] }], includes: { posts: [{ id: '2', text: 'x' }] } }),
    { data: [{ id: '1', text: 'post_id and posts', referenced_tweets: [{ type: 'retweeted', id: '2' }] }], includes: { tweets: [{ id: '2', text: 'x' }] } },
  );
  assert.deepEqual(bodyToTweet({ errors: [{ resource_type: 'post', parameter: 'post_id', detail: 'The `post_id` field and post.fields' }] }), {
    errors: [{ resource_type: 'tweet', parameter: 'tweet_id', detail: 'The `tweet_id` field and tweet.fields' }],
  });
  assert.deepEqual(bodyToTweet({ data: { title: 'post_id talk' } }), { data: { title: 'post_id talk' } }, "a space's title is its host's text");
  assert.equal(messageToTweet('[edit_history_post_ids,referenced_posts,text]'), '[edit_history_tweet_ids,referenced_tweets,text]');
  assert.equal(messageToTweet('Could not find post with id: [1].'), 'Could not find tweet with id: [1].');
});
