import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { OffsetClock } from '../../src/clock.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { png } from '../support/media-files.js';

/**
 * The drop-in proxy (issue 35) with three SDKs, each driven by a program written as its user would
 * write it for the public platform (test/proxy/programs/): no Plaza address, no base URL, no
 * plugin, no session of its own. The only change is how it is run: tweepy with HTTPS_PROXY and
 * REQUESTS_CA_BUNDLE, the Node programs with `node --import <node_preload>`. No app is switched to
 * the tweet dialect: the public host names the requests arrive for decide it.
 *
 * Each program posts, reads the post back with its author expanded, searches for it, likes it
 * through the enterprise app, sees a second post arrive on the filtered stream, and uploads a
 * photo, then prints one JSON object.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const programs = path.join(here, 'programs');
/** The first Python that imports tweepy: Debian's package installs it for the system Python. */
const python = ['python3', '/usr/bin/python3'].find((p) => spawnSync(p, ['-c', 'import tweepy'], { stdio: 'ignore' }).status === 0);
const curl = spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;

let plaza: TestPlaza;
/** Real time (OAuth 1.0a timestamps are checked against it), moved on once a program has posted: search's default end_time is 30 s before the request. */
const clock = new OffsetClock();
let photo: string;

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  photo = path.join(plaza.dataDir, 'bot-photo.png');
  fs.writeFileSync(photo, png(48, 32));
});

const user = (name: string) => plaza.creds.users.find((u) => u.username === name)!;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a program to its end, bounded by `timeoutMs` (then killed); the child is reaped before this
 * resolves. Each `posted <id>` line on its stderr moves Plaza's clock past search's 30 s lag, so
 * the program's search, asking again until the post is there, finds it.
 */
function runBot(command: string, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: programs, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      pending += d;
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        if (/^posted [0-9]+$/.test(line)) clock.offsetMs += 31_000;
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function outputOf(run: Run): Record<string, any> {
  assert.equal(run.code, 0, `exit ${run.code ?? run.signal}\n--- stderr ---\n${run.stderr}\n--- stdout ---\n${run.stdout}`);
  try {
    return JSON.parse(run.stdout);
  } catch {
    assert.fail(`not one JSON object on stdout:\n${run.stdout}\n--- stderr ---\n${run.stderr}`);
  }
}

/** What every program's output shows: the post read back in the tweet dialect, found, liked, streamed; the media id. */
function assertBotOutput(out: Record<string, any>, username: string): void {
  assert.match(out.posted, /^[0-9]+$/);
  assert.equal(out.read.id, out.posted, 'the post read back by id');
  assert.deepEqual(out.read.edit_history_tweet_ids, [out.posted], 'edit_history_tweet_ids: the tweet dialect');
  assert.deepEqual(out.read.includes_users, [username], 'expansions=author_id: the author in includes.users');
  assert.deepEqual(out.search, [out.posted], 'recent search found the post by its word');
  assert.equal(out.liked, true, 'liked through the enterprise app');
  assert.match(out.stream.posted, /^[0-9]+$/);
  assert.deepEqual(out.stream.received, [out.stream.posted], 'the post made while connected arrived on the filtered stream');
  assert.match(out.media.media_id, /^[0-9]+$/, 'a media id');
}

test('the programs name no Plaza address: no 127.0.0.1, localhost or PLAZA', () => {
  for (const file of ['tweepy_bot.py', 'twitter_api_v2_bot.mjs', 'xdk_bot.mjs']) {
    const text = fs.readFileSync(path.join(programs, file), 'utf8');
    for (const word of ['127.0.0.1', 'localhost', 'PLAZA']) assert.ok(!text.includes(word), `${file} contains ${word}`);
  }
});

test('curl with --proxy and --cacert: GET https://api.x.com/2/users/by/username/ada?user.fields=public_metrics answers in the tweet dialect (tweet_count)', { skip: curl ? false : 'curl is not installed' }, async () => {
  const run = await runBot(
    'curl',
    [
      '--silent',
      '--show-error',
      '--fail-with-body',
      '--max-time',
      '15',
      '--proxy',
      plaza.dropIn.proxy_url,
      '--cacert',
      plaza.dropIn.ca_file,
      '-H',
      `Authorization: Bearer ${plaza.creds.apps[0].bearer_token}`,
      'https://api.x.com/2/users/by/username/ada?user.fields=public_metrics',
    ],
    {},
  );
  const out = outputOf(run);
  assert.equal(out.data.username, 'ada');
  assert.equal(typeof out.data.public_metrics.tweet_count, 'number', JSON.stringify(out));
});

test('tweepy, run with HTTPS_PROXY and REQUESTS_CA_BUNDLE only: Client (OAuth 1.0a) posts, reads back, searches, likes (enterprise app), StreamingClient receives a post; API.media_upload through v1.1', { skip: python ? false : 'python3-tweepy is not installed (apt-get install python3-tweepy)' }, async () => {
  const [selfServe, enterprise] = plaza.creds.apps;
  const ada = user('ada');
  const chen = user('chen');
  const run = await runBot(python!, [path.join(programs, 'tweepy_bot.py')], {
    HTTPS_PROXY: plaza.dropIn.proxy_url,
    REQUESTS_CA_BUNDLE: plaza.dropIn.ca_file,
    BEARER_TOKEN: selfServe.bearer_token,
    CONSUMER_KEY: selfServe.consumer_key,
    CONSUMER_SECRET: selfServe.consumer_secret,
    ACCESS_TOKEN: ada.access_token,
    ACCESS_TOKEN_SECRET: ada.access_token_secret,
    LIKER_CONSUMER_KEY: enterprise.consumer_key,
    LIKER_CONSUMER_SECRET: enterprise.consumer_secret,
    LIKER_ACCESS_TOKEN: chen.tokens[1].access_token,
    LIKER_ACCESS_TOKEN_SECRET: chen.tokens[1].access_token_secret,
    PHOTO: photo,
  });
  assertBotOutput(outputOf(run), 'ada');
});

test('twitter-api-v2, run with node --import <node_preload>: OAuth 2.0 user context posts, reads back, searches, likes (enterprise app), searchStream receives a post; v1.uploadMedia (OAuth 1.0a)', async () => {
  const [selfServe] = plaza.creds.apps;
  const chen = user('chen');
  const run = await runBot(process.execPath, ['--import', plaza.dropIn.node_preload, path.join(programs, 'twitter_api_v2_bot.mjs')], {
    BEARER_TOKEN: selfServe.bearer_token,
    OAUTH2_USER_TOKEN: chen.oauth2_access_token,
    CONSUMER_KEY: selfServe.consumer_key,
    CONSUMER_SECRET: selfServe.consumer_secret,
    ACCESS_TOKEN: chen.access_token,
    ACCESS_TOKEN_SECRET: chen.access_token_secret,
    LIKER_OAUTH2_TOKEN: user('dana').tokens[1].oauth2_access_token,
    PHOTO: photo,
  });
  assertBotOutput(outputOf(run), 'chen');
});

test('xdk, run with node --import <node_preload>: OAuth 1.0a posts, reads back, searches, likes (enterprise app), stream.posts receives a post; media.upload (POST /2/media/upload: xdk has no v1.1 upload)', async () => {
  const [selfServe, enterprise] = plaza.creds.apps;
  const dana = user('dana');
  const ada = user('ada');
  const run = await runBot(process.execPath, ['--import', plaza.dropIn.node_preload, path.join(programs, 'xdk_bot.mjs')], {
    BEARER_TOKEN: selfServe.bearer_token,
    CONSUMER_KEY: selfServe.consumer_key,
    CONSUMER_SECRET: selfServe.consumer_secret,
    ACCESS_TOKEN: dana.access_token,
    ACCESS_TOKEN_SECRET: dana.access_token_secret,
    LIKER_CONSUMER_KEY: enterprise.consumer_key,
    LIKER_CONSUMER_SECRET: enterprise.consumer_secret,
    LIKER_ACCESS_TOKEN: ada.tokens[1].access_token,
    LIKER_ACCESS_TOKEN_SECRET: ada.tokens[1].access_token_secret,
    PHOTO: photo,
  });
  const out = outputOf(run);
  assertBotOutput(out, 'dana');
  assert.match(out.media.media_key, /^[0-9]+_[0-9]+$/, 'a media key');
});
