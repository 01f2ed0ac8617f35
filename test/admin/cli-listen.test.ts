import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { WebhookReceiver, Receiver } from '../support/receivers.js';
import { plazaArgs, plazaCli } from '../support/cli.js';
import { eventually } from '../support/wait.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { adminFixtures } from './support.js';
import { fixtures } from '../support/fixtures.js';

/**
 * `plaza listen --forward-to URL [--events TYPES]` (issue #17 "The CLI"): every delivery made for
 * the app's webhooks is forwarded, signed, to a local URL, with a line per delivery.
 */
let plaza: TestPlaza;
let file: string;
let f: ReturnType<typeof fixtures>;
const hook = new WebhookReceiver();
const local = new Receiver();
const children: ChildProcess[] = [];

before(async () => {
  await hook.start();
  await local.start();
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  file = path.join(plaza.dataDir, 'credentials.json');
  hook.secret = f.selfServe.consumer_secret;
  const created = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: hook.url('bot') } });
  assert.equal(created.status, 200, created.text);
  const sub = await f.send('POST', `/2/account_activity/webhooks/${created.body.data.id}/subscriptions/all`, { auth: f.oauth1As('chen') });
  assert.equal(sub.status, 200, sub.text);
});
after(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await Promise.all([hook.close(), local.close()]);
});

/** Starts `plaza listen` and resolves once it says it is ready; its output is collected. */
async function startListen(...args: string[]) {
  const child = spawn(process.execPath, plazaArgs('listen', '--forward-to', local.url('/local'), '--app', f.selfServe.id, '--poll-ms', '100', '--credentials-file', file, ...args));
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (c: Buffer) => (out.stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out.stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await eventually(() => out.stdout.includes('Ready'), () => `listen ready (stderr: ${out.stderr})`, 30_000);
  return {
    out,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const sign = (body: string) => `sha256=${createHmac('sha256', f.selfServe.consumer_secret).update(body).digest('base64')}`;

test('"forwards every delivery meant for the app\'s webhooks to a local URL", signed, one line per delivery (time, type, status, latency)', async () => {
  const a = adminFixtures(plaza);
  const listen = await startListen();
  const mention = await a.admin('POST', `/admin/users/${f.user('ada').id}/posts`, { body: { text: '@chen are you there' } });
  assert.equal(mention.status, 201, mention.text);
  const id = mention.body.data.id;
  const forwarded = () => local.hits.find((h) => h.body.includes(id));
  await eventually(() => !!forwarded() && /tweet_create_events/.test(listen.out.stdout), () => `the mention forwarded (stdout: ${listen.out.stdout})`, 30_000);
  const hit = forwarded()!;
  assert.equal(hit.url, '/local');
  assert.equal(hit.headers['x-twitter-webhooks-signature'], sign(hit.body));
  const body = JSON.parse(hit.body);
  assert.equal(body.for_user_id, f.user('chen').id);
  assert.equal(body.tweet_create_events[0].id, id);
  // The same body the webhook itself got.
  await hook.until(() => hook.on('bot').some((d) => d.body?.tweet_create_events?.[0]?.id === id), 'the real delivery');
  assert.equal(hit.headers['x-plaza-delivery-id'], hook.on('bot').find((d) => d.body?.tweet_create_events?.[0]?.id === id)!.headers['x-plaza-delivery-id']);
  assert.match(listen.out.stdout, /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}tweet_create_events {2}200 {2}\d+ ms {2}\[\d+\]$/m);
  assert.equal(await listen.stop(), 0);
  assert.match(listen.out.stdout, /Stopped\.\n$/);
});

test('"--events TYPES" forwards only those types', async () => {
  const a = adminFixtures(plaza);
  const listen = await startListen('--events', 'follow_events');
  const before = local.hits.length;
  const mention = await a.admin('POST', `/admin/users/${f.user('ada').id}/posts`, { body: { text: '@chen only follows please' } });
  assert.equal(mention.status, 201, mention.text);
  // A new person follows chen: both sides hear of it, chen through the app's webhook.
  const fan = await a.admin('POST', '/admin/users', { body: { username: 'listen_fan' } });
  assert.equal(fan.status, 201, fan.text);
  const follow = await a.admin('POST', `/admin/users/${fan.body.data.id}/following`, { body: { target_user_id: f.user('chen').id } });
  assert.equal(follow.status, 200, follow.text);
  await eventually(() => local.hits.slice(before).some((h) => h.body.includes('follow_events')) && /follow_events {2}\d/.test(listen.out.stdout), () => `the follow forwarded (stdout: ${listen.out.stdout})`, 30_000);
  // Deliveries come in log order: by the follow, the mention was passed over.
  assert.ok(!local.hits.slice(before).some((h) => h.body.includes(mention.body.data.id)), 'the mention is not forwarded');
  assert.doesNotMatch(listen.out.stdout, /tweet_create_events/);
  assert.match(listen.out.stdout, / {2}follow_events {2}200 /);
  assert.equal(await listen.stop(), 0);
});

test('"or an Activity subscription": listen forwards the events of the app\'s Activity subscriptions that name no webhook, in the stream\'s envelope, signed as a delivery', async () => {
  const a = adminFixtures(plaza);
  const dana = f.user('dana');
  const sub = await f.send('POST', '/2/activity/subscriptions', { auth: f.appAuth, body: { event_type: 'profile.update.bio', filter: { user_id: dana.id }, tag: 'bio watch' } });
  assert.equal(sub.status, 200, sub.text);
  const subscriptionId = sub.body.data.subscription.subscription_id ?? sub.body.data.subscription.id;
  const listen = await startListen('--events', 'profile.update.bio');
  const before = local.hits.length;
  const changed = await a.admin('PATCH', `/admin/users/${dana.id}/profile`, { body: { description: 'Now watched by listen' } });
  assert.equal(changed.status, 200, changed.text);
  await eventually(() => local.hits.slice(before).some((h) => h.body.includes('Now watched by listen')) && /profile\.update\.bio {2}200/.test(listen.out.stdout), () => `the bio change forwarded (stdout: ${listen.out.stdout})`, 30_000);
  const hit = local.hits.slice(before).find((h) => h.body.includes('Now watched by listen'))!;
  assert.equal(hit.headers['x-twitter-webhooks-signature'], sign(hit.body));
  const body = JSON.parse(hit.body);
  assert.equal(body.data.event_type, 'profile.update.bio');
  assert.equal(body.data.tag, 'bio watch');
  assert.deepEqual(body.data.filter, { user_id: dana.id });
  assert.match(String(hit.headers['x-plaza-delivery-id']), new RegExp(`^activity-${subscriptionId ?? '\\d+'}-`));
  // Exactly once, though the listener polls on: by the time a later change arrives, the first came once.
  const again = await a.admin('PATCH', `/admin/users/${dana.id}/profile`, { body: { description: 'Watched again' } });
  assert.equal(again.status, 200, again.text);
  await eventually(() => local.hits.slice(before).some((h) => h.body.includes('Watched again')), () => 'the second change forwarded');
  assert.equal(local.hits.slice(before).filter((h) => JSON.parse(h.body).data?.payload?.after === 'Now watched by listen').length, 1);
  assert.equal(await listen.stop(), 0);
});

test('plaza listen fails with one line on an unknown app or a bad --forward-to; --help has an example', async () => {
  const unknown = await plazaCli('listen', '--forward-to', local.url(), '--app', 'No Such App', '--credentials-file', file);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr.trim(), /^plaza listen: 400: .*No Such App/);
  const bad = await plazaCli('listen', '--forward-to', 'nowhere', '--credentials-file', file);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr.trim(), /^plaza listen: --forward-to "nowhere" is not a URL/);
  const help = await plazaCli('listen', '--help');
  assert.match(help.stdout, /Example:\n\s+npm run plaza -- listen --forward-to /);
});
