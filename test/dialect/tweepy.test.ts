import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { OffsetClock } from '../../src/clock.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { runProgram } from './support.js';
import { png } from '../support/media-files.js';
import { fixtures } from '../support/fixtures.js';

/**
 * tweepy from Debian (python3-tweepy, installed by .ci/run), unchanged, driven against a real
 * Plaza in the tweet dialect (issue 15). Its program is test/dialect/tweepy_client.py.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
/** The first Python that imports tweepy: Debian's package installs it for the system Python. */
const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import tweepy'], { stdio: 'ignore' }).status === 0);

let plaza: TestPlaza;
const clock = new OffsetClock();

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  // As the README tells SDK users: the apps they use answer in the public platform's names.
  for (const app of plaza.creds.apps) {
    const set = await fixtures(plaza).send('PATCH', `/admin/apps/${app.id}`, { headers: { authorization: `Bearer ${plaza.creds.admin_token}` }, body: { dialect: 'tweet' } });
    assert.equal(set.status, 200, set.text);
  }
});

test('tweepy (Client and API, its session moved to Plaza): app-only lookup with tweet.fields/expansions, OAuth 1.0a and 2.0 user context, reply to a summoning post, delete, timelines with the Paginator, search, likes/follows/retweets on the enterprise app, v1.1 media upload, DMs', { skip: python ? false : 'python3-tweepy is not installed (apt-get install python3-tweepy)' }, async () => {
  const f = fixtures(plaza);
  const { creds } = plaza;
  const [, , quote] = creds.sample.post_ids;
  const user = (name: string) => f.user(name);
  const [selfServe, enterprise] = creds.apps;
  const word = `tweepyword${Date.now()}`;
  const made = await f.send('POST', '/2/posts', { auth: f.oauth2As('dana'), body: { text: `a post for tweepy to find: ${word}` } });
  assert.equal(made.status, 201, made.text);
  // Search's default end_time is 30 seconds before the request.
  clock.offsetMs += 31_000;
  const pngPath = path.join(plaza.dataDir, 'tweepy.png');
  fs.writeFileSync(pngPath, png(40, 20));

  const run = await runProgram(python!, [path.join(here, 'tweepy_client.py')], {
    PLAZA_URL: plaza.urls.base_url,
    BEARER_TOKEN: selfServe.bearer_token,
    CONSUMER_KEY: selfServe.consumer_key,
    CONSUMER_SECRET: selfServe.consumer_secret,
    ENT_CONSUMER_KEY: enterprise.consumer_key,
    ENT_CONSUMER_SECRET: enterprise.consumer_secret,
    ADA_TOKEN: user('ada').access_token,
    ADA_SECRET: user('ada').access_token_secret,
    ADA_ID: user('ada').id,
    DANA_ID: user('dana').id,
    DANA_ENT_TOKEN: user('dana').tokens[1].access_token,
    DANA_ENT_SECRET: user('dana').tokens[1].access_token_secret,
    CHEN_ENT_TOKEN: user('chen').tokens[1].access_token,
    CHEN_ENT_SECRET: user('chen').tokens[1].access_token_secret,
    CHEN_OAUTH2: user('chen').oauth2_access_token,
    QUOTE_ID: quote,
    SEARCH_WORD: word,
    PNG_PATH: pngPath,
  });
  assert.equal(run.code, 0, run.stderr);
  const out = JSON.parse(run.stdout);

  assert.equal(String(out.lookup.id), quote);
  assert.equal(out.lookup.referenced_tweets[0].type, 'quoted');
  assert.deepEqual(out.lookup.edit_history_tweet_ids, [quote]);
  assert.deepEqual(out.lookup.includes_tweets, [out.lookup.referenced_tweets[0].id]);
  assert.deepEqual(out.lookup.includes_users, ['dana']);

  assert.equal(out.oauth1.me, 'ada');
  assert.deepEqual(out.oauth1.reply_to, [out.oauth1.summons]);
  assert.equal(out.oauth1.deleted, true);

  assert.equal(out.oauth2.me, 'chen');
  assert.ok(out.oauth2.timeline_pages >= 2, 'the Paginator followed next_token');
  assert.equal(new Set(out.oauth2.timeline_ids).size, out.oauth2.timeline_ids.length, 'no post twice');
  assert.ok(out.oauth2.timeline_ids.length >= 6);
  assert.ok(out.oauth2.home_count > 0);

  assert.deepEqual(out.search, [made.body.data.id]);

  assert.deepEqual(out.enterprise, { liked: true, liking: [user('chen').id], unliked: false, following: true, retweeted: true });

  assert.match(out.media.media_id_string, /^[0-9]+$/);
  assert.deepEqual(out.media.types, ['photo']);
  assert.match(out.dm.dm_event_id, /^[0-9]+$/);

  assert.equal(typeof out.dialect.tweet_count, 'number', 'get_user with public_metrics reads tweet_count');
  assert.deepEqual(out.dialect.place, [['5a110d312052166f', 'San Francisco, CA', 'US']], 'create_tweet with place_id, read back with the geo.place_id expansion');
  assert.deepEqual(out.dialect.default_edit_history, [quote], 'get_tweet without fields has edit_history_tweet_ids');
  assert.equal(out.dialect.author_id, user('dana').id, 'expansions=author_id brings author_id');
  assert.deepEqual(out.dialect.includes_author, ['dana']);
  const ada = await plaza.ctx.store.db.selectFrom('users').select('created_at').where('id', '=', user('ada').id).executeTakeFirstOrThrow();
  assert.deepEqual(out.dialect.verify_credentials, { screen_name: 'ada', id_str: user('ada').id, year: new Date(ada.created_at).getUTCFullYear() }, 'API.verify_credentials parses the v1.1 user');
});
