import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { issueOAuth2Tokens } from '../../src/auth/issue.js';
import { ManualClock } from '../../src/clock.js';
import { DELIVERY_ID_HEADER, EVENT_ID_HEADER } from '../../src/events/delivery.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { WebhookReceiver } from '../support/receivers.js';
import { eventually } from '../support/wait.js';
import { fixtures } from '../support/fixtures.js';

/**
 * Replay (issue #10 "Replay"; shared/reference/platform.md §1 "Replay"): POST /2/webhooks/replay
 * re-delivers a window's events then the completion event; the per-webhook Account Activity replay
 * is deprecated from Mar 25, 2026 12:00 PM ET by the injected clock.
 */
const clock = new ManualClock(new Date('2026-03-25T14:00:00.000Z'));
let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const receiver = new WebhookReceiver();
let n = 0;

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza({}, { clock });
  f = fixtures(plaza);
  receiver.secret = f.selfServe.consumer_secret;
});
after(() => {
  receiver.dropHeld();
  return receiver.close();
});

/**
 * A fresh OAuth 2.0 token of the first demo user, issued at the injected time: OAuth 1.0a
 * signatures carry the real time, which this test's clock is far from.
 */
async function userAuth() {
  const issued = await issueOAuth2Tokens(plaza.ctx, plaza.ctx.store.db, f.selfServe.id, plaza.creds.users[0]!.id, ['users.read', 'post.read', 'post.write']);
  return { bearer: issued.accessToken };
}

/** yyyymmddhhmm, UTC. */
const stamp = (d: Date) => d.toISOString().replace(/[-T:]/g, '').slice(0, 12);
const minutes = (m: number) => new Date(clock.now().getTime() + m * 60_000);

async function webhookWithSubscriber(name: string) {
  const res = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: receiver.url(name) } });
  assert.equal(res.status, 200, res.text);
  const id = res.body.data.id as string;
  const auth = await userAuth();
  assert.equal((await f.send('POST', `/2/account_activity/webhooks/${id}/subscriptions/all`, { auth })).status, 200);
  return { id, auth };
}

async function postAndDeliver(name: string, auth: any, text: string): Promise<string> {
  const res = await f.send('POST', '/2/posts', { auth, body: { text } });
  assert.equal(res.status, 201, res.text);
  const postId = res.body.data.id;
  await receiver.until(() => receiver.on(name).some((d) => d.answered === 200 && d.body?.tweet_create_events?.[0]?.id === postId), `the delivery of ${text}`);
  return postId;
}

test('the per-webhook replay works as before until Mar 25, 2026 12:00 PM ET by the injected clock: no Deprecation header before then', async () => {
  const name = `legacy-before-${++n}`;
  const { id } = await webhookWithSubscriber(name);
  clock.advance(40 * 60_000); // 14:40Z, still before 16:00Z (12:00 PM EDT)
  const res = await f.send('POST', `/2/account_activity/replay/webhooks/${id}/subscriptions/all?from_date=${stamp(minutes(-39))}&to_date=${stamp(minutes(-11))}`, { auth: f.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.match(res.body.data.job_id, /^[0-9]{1,19}$/);
  assert.equal(res.headers.get('deprecation'), null);
  assert.equal(res.headers.get('link'), null);
  await receiver.until(() => receiver.on(name).some((d) => d.body?.replay_job_status?.job_id === res.body.data.job_id), 'the completion event');
});

test('the per-webhook replay keeps its own window rules: from_date at least 31 minutes ago, to_date at least 10 minutes ago (QueryParamInvalid)', async () => {
  const name = `legacy-window-${++n}`;
  const { id } = await webhookWithSubscriber(name);
  const tooRecent = await f.send('POST', `/2/account_activity/replay/webhooks/${id}/subscriptions/all?from_date=${stamp(minutes(-20))}&to_date=${stamp(minutes(-11))}`, { auth: f.appAuth });
  assert.equal(tooRecent.status, 400, tooRecent.text);
  assert.ok('from_date' in tooRecent.body.errors[0].parameters);
  assert.match(tooRecent.body.errors[0].message, /^QueryParamInvalid/);
  const toTooRecent = await f.send('POST', `/2/account_activity/replay/webhooks/${id}/subscriptions/all?from_date=${stamp(minutes(-40))}&to_date=${stamp(minutes(-5))}`, { auth: f.appAuth });
  assert.equal(toTooRecent.status, 400);
  assert.ok('to_date' in toTooRecent.body.errors[0].parameters);
});

test('from Mar 25, 2026 12:00 PM ET the per-webhook replay still answers but is marked deprecated: `Deprecation` (RFC 9745) and `Link: </2/webhooks/replay>; rel="successor-version"`; the OpenAPI document marks it `deprecated: true`', async () => {
  const name = `legacy-after-${++n}`;
  const { id } = await webhookWithSubscriber(name);
  clock.set(new Date('2026-03-25T16:00:00.000Z'));
  const res = await f.send('POST', `/2/account_activity/replay/webhooks/${id}/subscriptions/all?from_date=${stamp(minutes(-60))}&to_date=${stamp(minutes(-30))}`, { auth: f.appAuth });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.headers.get('deprecation'), `@${Date.parse('2026-03-25T16:00:00Z') / 1000}`);
  assert.equal(res.headers.get('link'), '</2/webhooks/replay>; rel="successor-version"');
  const doc = await f.get('/2/openapi.json');
  assert.equal(doc.status, 200);
  const op = doc.body.paths['/2/account_activity/replay/webhooks/{webhook_id}/subscriptions/all'].post;
  assert.equal(op.deprecated, true);
  assert.ok(doc.body.paths['/2/webhooks/replay'].post, 'the successor is described');
  assert.notEqual(doc.body.paths['/2/webhooks/replay'].post.deprecated, true);
});

test('POST /2/webhooks/replay {webhook_id, from_date, to_date}: a job that re-delivers the window\'s events to the webhook, then the completion event', async () => {
  clock.advance(3 * 60 * 60_000);
  const name = `replay-${++n}`;
  const { id, auth } = await webhookWithSubscriber(name);
  const from = clock.now();
  const inWindow = [await postAndDeliver(name, auth, 'replayed one'), await postAndDeliver(name, auth, 'replayed two')];
  clock.advance(5 * 60_000);
  const outside = await postAndDeliver(name, await userAuth(), 'after the window');
  clock.advance(30 * 60_000);
  const before = receiver.on(name).length;
  const res = await f.send('POST', '/2/webhooks/replay', { auth: f.appAuth, body: { webhook_id: id, from_date: stamp(from), to_date: stamp(new Date(from.getTime() + 3 * 60_000)) } });
  assert.equal(res.status, 200, res.text);
  const jobId = res.body.data.job_id;
  assert.match(jobId, /^[0-9]{1,19}$/);
  assert.equal(res.body.data.created_at, clock.now().toISOString());
  await receiver.until(() => receiver.on(name).some((d) => d.body?.replay_job_status), 'the completion event');
  // A replay sends old events in new deliveries. An earlier delivery tried again keeps its delivery
  // id (at-least-once: an attempt answered too late on a busy machine is retried once the clock
  // moves on, as it did above): that is no replay.
  const earlier = new Set(receiver.on(name).slice(0, before).map((d) => d.headers[DELIVERY_ID_HEADER]));
  const replayed = receiver.on(name).slice(before).filter((d) => !earlier.has(d.headers[DELIVERY_ID_HEADER]));
  const status = replayed.at(-1)!.body.replay_job_status;
  assert.deepEqual(status, { webhook_id: id, job_state: 'Complete', job_state_description: status.job_state_description, job_id: jobId });
  const replayedPosts = replayed.flatMap((d) => (d.body?.tweet_create_events ?? []).map((p: any) => p.id));
  assert.deepEqual(replayedPosts.sort(), [...inWindow].sort(), 'the window\'s events, and only those');
  assert.ok(!replayedPosts.includes(outside));
  // The same events (event ids) in new deliveries (delivery ids), signed like any other.
  const originals = receiver.on(name).slice(0, before).filter((d) => inWindow.includes(d.body?.tweet_create_events?.[0]?.id));
  for (const r of replayed.filter((d) => d.body?.tweet_create_events)) {
    const original = originals.find((o) => o.body.tweet_create_events[0].id === r.body.tweet_create_events[0].id)!;
    assert.equal(r.headers[EVENT_ID_HEADER], original.headers[EVENT_ID_HEADER]);
    assert.notEqual(r.headers[DELIVERY_ID_HEADER], original.headers[DELIVERY_ID_HEADER]);
    assert.equal(r.raw, original.raw);
  }
});

test('POST /2/webhooks/replay: ReplayConflictError while a job runs for the webhook', async () => {
  const name = `conflict-${++n}`;
  const { id, auth } = await webhookWithSubscriber(name);
  const from = clock.now();
  await postAndDeliver(name, auth, 'to replay');
  clock.advance(15 * 60_000);
  receiver.status.set(name, 'hold');
  const window = { webhook_id: id, from_date: stamp(from), to_date: stamp(minutes(-1)) };
  const first = await f.send('POST', '/2/webhooks/replay', { auth: f.appAuth, body: window });
  assert.equal(first.status, 200, first.text);
  await receiver.until(() => receiver.on(name).some((d) => d.answered === 'held'), 'the replayed delivery in flight');
  const second = await f.send('POST', '/2/webhooks/replay', { auth: f.appAuth, body: window });
  assert.equal(second.status, 409, second.text);
  assert.match(second.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.match(second.body.detail, /^ReplayConflictError/);
  // Once the job is done, a new one may start.
  receiver.status.delete(name);
  receiver.dropHeld();
  await eventually(async () => {
    clock.advance(60_000);
    return receiver.on(name).some((d) => d.body?.replay_job_status?.job_id === first.body.data.job_id);
  }, 'the first job to complete', 20_000);
  const third = await f.send('POST', '/2/webhooks/replay', { auth: f.appAuth, body: window });
  assert.equal(third.status, 200, third.text);
});

test('POST /2/webhooks/replay: QueryParamInvalid for bad windows (format, from after to, future, older than 24 h), naming the date; nothing is started', async () => {
  const name = `bad-${++n}`;
  const { id } = await webhookWithSubscriber(name);
  const cases: Array<[string, string, string]> = [
    ['2026032', stamp(minutes(-1)), 'from_date'],
    ['202603251261', stamp(minutes(-1)), 'from_date'],
    [stamp(minutes(-10)), 'yesterday', 'to_date'],
    [stamp(minutes(-5)), stamp(minutes(-10)), 'from_date'],
    [stamp(minutes(-10)), stamp(minutes(+10)), 'to_date'],
    [stamp(minutes(-25 * 60)), stamp(minutes(-60)), 'from_date'],
  ];
  for (const [from_date, to_date, named] of cases) {
    const res = await f.send('POST', '/2/webhooks/replay', { auth: f.appAuth, body: { webhook_id: id, from_date, to_date } });
    assert.equal(res.status, 400, `${from_date}..${to_date}: ${res.text}`);
    assert.ok(named in res.body.errors[0].parameters, `${from_date}..${to_date} names ${named}: ${res.text}`);
    assert.match(res.body.errors[0].message, /^QueryParamInvalid/);
  }
  const unknown = await f.send('POST', '/2/webhooks/replay', { auth: f.appAuth, body: { webhook_id: '999999999', from_date: stamp(minutes(-10)), to_date: stamp(minutes(-1)) } });
  assert.equal(unknown.status, 400);
  assert.match(unknown.body.errors[0].message, /^WebhookIdInvalid/);
  const jobs = await plaza.ctx.store.db.selectFrom('webhook_replay_jobs').select('id').where('webhook_id', '=', id).execute();
  assert.equal(jobs.length, 0);
  assert.equal((await f.send('POST', '/2/webhooks/replay', { auth: await userAuth(), body: { webhook_id: id, from_date: stamp(minutes(-10)), to_date: stamp(minutes(-1)) } })).status, 403, 'app-only');
});
