import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { WebhookReceiver } from '../support/receivers.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { plazaCli } from '../support/cli.js';
import { adminFixtures } from './support.js';
import { fixtures } from '../support/fixtures.js';

/**
 * `plaza seed` and `plaza replay` (issue #17 "The CLI": "shows a progress bar for long work
 * (seeding, replay)"), and the admin routes behind them: POST /admin/seed, POST /admin/replays,
 * GET /admin/replays/{job_id}. The tests read the CLI's output through a pipe, where the bar
 * becomes plain lines.
 */
let plaza: TestPlaza;
let file: string;
let f: ReturnType<typeof fixtures>;
const hook = new WebhookReceiver();

before(async () => {
  await hook.start();
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  file = path.join(plaza.dataDir, 'credentials.json');
  hook.secret = f.selfServe.consumer_secret;
});
after(async () => {
  await hook.close();
});

const db = () => plaza.ctx.store.db;
const postsOf = async (username: string) => {
  const user = await db().selectFrom('users').select(['id', 'post_count']).where('username', '=', username).executeTakeFirstOrThrow();
  const n = await db().selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).where('author_id', '=', user.id).executeTakeFirstOrThrow();
  return { count: Number(n.n), post_count: Number(user.post_count) };
};
const seededCount = async () =>
  Number(
    (
      await db()
        .selectFrom('posts')
        .innerJoin('users', 'users.id', 'posts.author_id')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('users.username', 'like', 'seed_user_%')
        .executeTakeFirstOrThrow()
    ).n,
  );

test('"plaza seed" fills the running Plaza with generated authors and posts that search finds, with a progress bar that is plain lines off a terminal', async () => {
  const before = await seededCount();
  const started = Date.now();
  const res = await plazaCli('seed', '--posts', '5000', '--users', '20', '--chunk', '1000', '--seed', '42', '--credentials-file', file);
  assert.equal(res.code, 0, res.stderr);
  assert.ok(Date.now() - started < 30_000, 'thousands of posts in seconds');
  // Not a TTY: no carriage returns nor escape sequences, a first and a last line.
  assert.doesNotMatch(res.stdout, /\r|\x1b\[/);
  assert.match(res.stdout, /^seeding posts: 0\/5000 posts \(0%\)$/m);
  assert.match(res.stdout, /^seeding posts: 5000\/5000 posts \(100%\)$/m);
  assert.match(res.stdout, /^Seeded 5000 posts by 20 authors \(seed_user_0\.\.\.seed_user_19\), from .+ to .+, seed 42\.$/m);
  assert.equal((await seededCount()) - before, 5000);

  // The authors' counters are what posting one by one would have left.
  const { count, post_count } = await postsOf('seed_user_3');
  assert.ok(count > 0);
  assert.equal(post_count, count);

  // The search index has them: recent search finds an author's posts.
  const found = await f.get(`/2/posts/search/recent?query=${encodeURIComponent('from:seed_user_3')}&max_results=100`, { auth: f.appAuth });
  assert.equal(found.status, 200, found.text);
  assert.ok(found.body.meta.result_count > 0, found.text);
});

test('"plaza seed" run twice under a frozen clock writes new posts, not the same ids again', async () => {
  const a = adminFixtures(plaza);
  const frozen = await a.admin('POST', '/admin/clock', { body: { set: plaza.ctx.clock.now().toISOString(), frozen: true } });
  assert.equal(frozen.status, 200, frozen.text);
  try {
    const before = await seededCount();
    for (const seed of ['7', '8']) {
      const res = await plazaCli('seed', '--posts', '300', '--users', '5', '--seed', seed, '--credentials-file', file);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /^Seeded 300 posts by 5 authors/m);
    }
    assert.equal((await seededCount()) - before, 600);
  } finally {
    await a.admin('POST', '/admin/clock', { body: { real: true } });
  }
});

test('POST /admin/seed refuses bad input with a 400 naming the parameter, and writes nothing', async () => {
  const a = adminFixtures(plaza);
  const before = await seededCount();
  const future = new Date(plaza.ctx.clock.now().getTime() + 3_600_000).toISOString();
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ posts: 10, until: future }, 'until'],
    [{ posts: 10, until: 'yesterday' }, 'until'],
    [{ posts: 10, first: 5, of: 12 }, 'first'],
  ];
  for (const [body, parameter] of cases) {
    const res = await a.admin('POST', '/admin/seed', { body });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.errors?.[0]?.parameters?.[parameter] !== undefined || JSON.stringify(res.body).includes(parameter), true, res.text);
  }
  for (const body of [{ posts: 0 }, { posts: 10_001 }, { posts: 10, users: 10_000 }, { posts: 10, extra: 1 }]) {
    const res = await a.admin('POST', '/admin/seed', { body });
    assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
  }
  const interfaceToken = await f.send('POST', '/admin/seed', { auth: f.appAuth, body: { posts: 10 } });
  assert.equal(interfaceToken.status, 401);
  assert.equal(await seededCount(), before);
});

test('plaza seed fails with one line on a bad --posts; --help has an example', async () => {
  const bad = await plazaCli('seed', '--posts', 'many', '--credentials-file', file);
  assert.equal(bad.code, 1);
  assert.equal(bad.stderr.trim(), 'plaza seed: --posts must be an integer from 1 to 10000000 (got "many")');
  const help = await plazaCli('seed', '--help');
  assert.match(help.stdout, /Example:\n\s+npm run plaza -- seed --posts /);
});

async function webhookWithDeliveries(name: string, mentions: number): Promise<string> {
  const a = adminFixtures(plaza);
  const created = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: hook.url(name) } });
  assert.equal(created.status, 200, created.text);
  const webhookId = created.body.data.id as string;
  const sub = await f.send('POST', `/2/account_activity/webhooks/${webhookId}/subscriptions/all`, { auth: f.oauth1As('chen') });
  assert.equal(sub.status, 200, sub.text);
  for (let i = 0; i < mentions; i++) {
    const post = await a.admin('POST', `/admin/users/${f.user('ada').id}/posts`, { body: { text: `@chen replay me ${name} ${i}` } });
    assert.equal(post.status, 201, post.text);
  }
  await hook.until(() => hook.on(name).filter((d) => d.body?.tweet_create_events).length >= mentions, `${mentions} deliveries to ${name}`);
  return webhookId;
}

test('"plaza replay --webhook ID --from ISO --to ISO" starts a replay job and shows its progress until it completes', async () => {
  const webhookId = await webhookWithDeliveries('replayed', 3);
  const a = adminFixtures(plaza);
  // Replay windows are whole minutes and may not end in the future: the minute of the deliveries must be over.
  const moved = await a.admin('POST', '/admin/clock', { body: { advance: 'PT1M' } });
  assert.equal(moved.status, 200, moved.text);
  const now = plaza.ctx.clock.now();
  const from = new Date(now.getTime() - 10 * 60_000).toISOString();
  // The window may not end in the future: up to now by Plaza's clock when --to is absent.
  const res = await plazaCli('replay', '--webhook', webhookId, '--from', from, '--poll-ms', '100', '--credentials-file', file);
  assert.equal(res.code, 0, res.stderr);
  assert.match(res.stdout, new RegExp(`^Replay job \\d+: webhook ${webhookId}, .+, (\\d+) deliveries to re-send$`, 'm'));
  const total = Number(/(\d+) deliveries to re-send/.exec(res.stdout)![1]);
  assert.ok(total >= 3, res.stdout);
  assert.match(res.stdout, new RegExp(`^replaying: ${total}/${total} deliveries \\(100%\\)$`, 'm'));
  assert.match(res.stdout, new RegExp(`^Replay job (\\d+) complete: ${total} of ${total} deliveries re-sent`, 'm'));
  const jobId = /^Replay job (\d+) complete/m.exec(res.stdout)![1];
  // The webhook got the copies and the job's completion event.
  await hook.until(() => hook.on('replayed').some((d) => d.body?.replay_job_status?.job_id === jobId), 'the replay_job_status event');
  assert.equal(hook.on('replayed').find((d) => d.body?.replay_job_status?.job_id === jobId)!.body.replay_job_status.job_state, 'Complete');
  assert.ok(hook.on('replayed').filter((d) => d.body?.tweet_create_events).length >= 6, 'each delivery twice');

  const progress = await a.admin('GET', `/admin/replays/${jobId}`);
  assert.equal(progress.status, 200, progress.text);
  assert.deepEqual({ ...progress.body.data, created_at: undefined, finished_at: undefined, from_date: undefined, to_date: undefined }, {
    job_id: jobId, webhook_id: webhookId, state: 'complete', total, delivered: total, failed: 0, pending: 0, created_at: undefined, finished_at: undefined, from_date: undefined, to_date: undefined,
  });

  // A window ending in the future is the platform's own refusal, naming to_date. Taken now, a
  // whole minute at least ahead: the replay above may have run into the next minute.
  const to = new Date(plaza.ctx.clock.now().getTime() + 2 * 60_000).toISOString().slice(0, 16) + 'Z';
  const future = await plazaCli('replay', '--webhook', webhookId, '--from', from, '--to', to, '--credentials-file', file);
  assert.equal(future.code, 1);
  assert.match(future.stderr.trim(), /^plaza replay: 400: .*to_date.*in the future/);
});

test('plaza replay fails with one line on an unknown webhook or a bad --from; GET /admin/replays/{id} of no job is 404; --help has an example', async () => {
  const unknown = await plazaCli('replay', '--webhook', '123456789', '--from', new Date().toISOString(), '--credentials-file', file);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr.trim(), /^plaza replay: 400: .*123456789/);
  assert.equal(unknown.stderr.trim().split('\n').length, 1);
  const webhookId = await webhookWithDeliveries('replay-bad-from', 1);
  const bad = await plazaCli('replay', '--webhook', webhookId, '--from', 'last tuesday', '--credentials-file', file);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr.trim(), /^plaza replay: 400: .*from_date.*last tuesday/);
  const a = adminFixtures(plaza);
  const none = await a.admin('GET', '/admin/replays/42');
  assert.equal(none.status, 404, none.text);
  const help = await plazaCli('replay', '--help');
  assert.match(help.stdout, /Example:\n\s+npm run plaza -- replay --webhook \d+ --from /);
});
