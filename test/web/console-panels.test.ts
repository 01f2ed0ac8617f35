import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER } from '../../src/events/delivery.js';
import { setUsageCap } from '../../src/platform/usage/service.js';
import { StreamClient } from '../support/streams.js';
import { signatureOf, WebhookReceiver } from '../support/receivers.js';
import { eventually } from '../support/wait.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { appBearer, chromiumMissing, createTestApp, FormClient, formsOf, launchChromium } from './support.js';
import { fixtures } from '../support/fixtures.js';
import type { FaultBook } from '../../src/admin/faults.js';

/**
 * The developer console's panels of an app (issue #17 "The developer console"): webhook
 * deliveries (time, event type, status, attempts, the body on click, a resend that really sends
 * again through the outbox), the usage and rate-limit figures, and the open stream connections
 * with a disconnect that really ends one. In Debian's Chromium, as ada, who owns the demo apps.
 */

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let browser: Browser;
let person: BrowserContext;
const receiver = new WebhookReceiver();
const streams: StreamClient[] = [];
const skip = chromiumMissing;
const SHOTS = '/tmp/plaza-shots';

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  receiver.secret = f.selfServe.consumer_secret;
  if (!skip) {
    browser = await launchChromium();
    person = await browser.newContext({ viewport: { width: 1100, height: 1200 } });
  }
});

after(async () => {
  for (const s of streams) s.close();
  await browser?.close();
  await receiver.close();
});

async function signedInPage(): Promise<Page> {
  const page = await person.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${plaza.urls.base_url}/login?next=/developer`);
  if (page.url().includes('/login')) {
    await page.getByLabel('Username or email').fill('ada');
    await page.getByLabel('Password').fill(f.user('ada').password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${plaza.urls.base_url}/developer`);
  }
  return page;
}

const db = () => plaza.ctx.store.db;

test('deliveries in Chromium: "time, event type, status, attempts, the body on click, a resend button" that sends the delivery again through the outbox, signed, with a new delivery id', { skip }, async () => {
  const chen = f.user('chen');
  receiver.status.set('console', 500);
  const hook = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: receiver.url('console') } });
  assert.equal(hook.status, 200, hook.text);
  const webhookId = hook.body.data.id as string;
  const sub = await f.send('POST', `/2/account_activity/webhooks/${webhookId}/subscriptions/all`, { auth: f.oauth1As(chen.username) });
  assert.equal(sub.status, 200, sub.text);
  const posted = await f.send('POST', '/2/posts', { auth: f.oauth1As(chen.username), body: { text: 'Seen by the console' } });
  assert.equal(posted.status, 201, posted.text);
  const postId = posted.body.data.id as string;
  await receiver.until(() => receiver.on('console').some((d) => d.body?.tweet_create_events?.[0]?.id === postId), 'the first (failing) attempt');
  const first = await eventually(
    async () => (await db().selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('attempts', '=', 1).executeTakeFirst()) ?? false,
    'the failed attempt recorded',
  );
  assert.equal(first.status, 'pending', 'a 500 is retried later');
  receiver.status.set('console', 200);

  const page = await signedInPage();
  await page.goto(`${plaza.urls.base_url}/developer/apps/${f.selfServe.id}`);
  await page.getByRole('link', { name: 'Webhook deliveries' }).click();
  await page.getByRole('heading', { name: `Webhook deliveries · ${f.selfServe.name}` }).waitFor();
  const row = page.locator(`#delivery-${first.id}`);
  await row.getByText('tweet_create_events', { exact: true }).waitFor();
  await row.getByText('(HTTP 500)').waitFor();
  assert.equal((await row.locator('td').nth(3).textContent())?.trim(), '1', 'attempts');
  const body = page.locator(`#delivery-${first.id}-body`);
  assert.equal(await body.locator('pre').isVisible(), false, 'the body is folded');
  await body.getByText(`Body of delivery ${first.id}`).click();
  await body.locator('pre').getByText(postId).first().waitFor();
  assert.deepEqual(JSON.parse((await body.locator('pre').textContent())!), JSON.parse(first.body));
  await page.screenshot({ path: `${SHOTS}/console-deliveries.png`, fullPage: true });

  await row.getByRole('button', { name: `Resend delivery ${first.id}` }).click();
  await page.getByRole('status').filter({ hasText: 'Delivery queued again' }).waitFor();
  await receiver.until(() => receiver.on('console').some((d) => d.answered === 200 && d.body?.tweet_create_events?.[0]?.id === postId), 'the resent delivery');
  const resent = receiver.on('console').find((d) => d.answered === 200 && d.body?.tweet_create_events?.[0]?.id === postId)!;
  assert.equal(resent.raw, first.body, 'the same body');
  assert.equal(resent.headers[SIGNATURE_HEADER], signatureOf(resent.raw, f.selfServe.consumer_secret), 'signed as any delivery');
  assert.notEqual(resent.headers[DELIVERY_ID_HEADER], first.id, 'a new delivery id, so a receiver that dedupes takes it');
  const copyId = String(resent.headers[DELIVERY_ID_HEADER]);
  await eventually(async () => (await db().selectFrom('webhook_deliveries').select('status').where('id', '=', copyId).executeTakeFirst())?.status === 'delivered', 'the copy recorded as delivered');
  await page.reload();
  const copyRow = page.locator(`#delivery-${copyId}`);
  await copyRow.getByText('Delivered (HTTP 200)').waitFor();
  await copyRow.getByText('(resend)').waitFor();
  await page.screenshot({ path: `${SHOTS}/console-resent.png`, fullPage: true });
  await page.close();
});

test('usage in Chromium: "the rate-limit and usage figures" of a pay-per-use app: credits spent, caps, charges by kind, posts used, injected rate limits', { skip }, async () => {
  const app = await createTestApp(plaza, f.user('ada').id, { name: 'Metered app', tier: 'pay-per-use' });
  const token = await appBearer(plaza, app.id);
  await setUsageCap(plaza.ctx, app.id, { period: 'Monthly', scope: 'Product', credits: 5 });
  const postId = plaza.creds.sample.post_ids[0];
  const read = await f.get(`/2/posts/${postId}`, { auth: { bearer: token } });
  assert.equal(read.status, 200, read.text);
  await eventually(async () => (await db().selectFrom('usage_ledger').select('id').where('app_id', '=', app.id).executeTakeFirst()) ?? false, 'the charge in the ledger');
  const ledger = await db().selectFrom('usage_ledger').selectAll().where('app_id', '=', app.id).execute();
  const fault = (await (plaza.ctx.faults as FaultBook).add({ kind: 'rate_limit', app_id: app.id, endpoint: 'GET /2/posts/{id}', count: 2 })) as { id: string };

  const page = await signedInPage();
  await page.goto(`${plaza.urls.base_url}/developer/apps/${app.id}`);
  await page.getByRole('link', { name: 'Usage and rate limits' }).click();
  await page.getByRole('heading', { name: 'Usage and rate limits · Metered app' }).waitFor();
  const spent = ledger.reduce((n, r) => n + r.amount_micro, 0) / 1_000_000;
  assert.equal(Number(await page.locator('#spent-month').textContent()), spent);
  assert.equal(Number(await page.locator('#spent-today').textContent()), spent);
  assert.equal(await page.locator('#posts-month').textContent(), '1', 'the post read');
  assert.equal(await page.locator('#post-cap').textContent(), '2,000,000', 'the monthly post cap of pay-per-use');
  await page.getByRole('table', { name: 'Caps' }).getByRole('row', { name: /Monthly Product/ }).getByText('5').first().waitFor();
  await page.getByRole('table', { name: 'Charges this month' }).getByText(ledger[0].kind).waitFor();
  await page.getByText('Limits of every endpoint').click();
  await page.locator('#rate-limit-table').getByRole('row', { name: /GET \/2\/posts\/\{id\} 450 per 15 minutes 900 per 15 minutes/ }).waitFor();
  const faults = page.getByRole('table', { name: 'Injected rate limits' });
  await faults.getByText('GET /2/posts/{id}').waitFor();
  assert.match((await faults.getByRole('row', { name: new RegExp(fault.id) }).textContent())!, /2$/);
  await page.screenshot({ path: `${SHOTS}/console-usage.png`, fullPage: true });
  await page.close();
  await (plaza.ctx.faults as FaultBook).clear(fault.id);
});

test('usage in Chromium: "per route the app has used, the limit, the remaining requests and the reset time of the current window", read without spending any', { skip }, async () => {
  const dana = f.user('dana');
  const postId = plaza.creds.sample.post_ids[0];
  let read = await f.get(`/2/posts/${postId}`, { auth: f.appAuth });
  read = await f.get(`/2/posts/${postId}`, { auth: f.appAuth });
  assert.equal(read.status, 200, read.text);
  const me = await f.get('/2/users/me', { auth: f.oauth1As(dana.username) });
  assert.equal(me.status, 200, me.text);
  const appRemaining = read.headers.get('x-rate-limit-remaining')!;
  const appReset = new Date(Number(read.headers.get('x-rate-limit-reset')) * 1000).toISOString();

  const page = await signedInPage();
  await page.goto(`${plaza.urls.base_url}/developer/apps/${f.selfServe.id}/usage`);
  const table = page.getByRole('table', { name: 'Remaining requests' });
  const appRow = table.getByRole('row', { name: /GET \/2\/posts\/\{id\} App \(bearer token\)/ });
  await appRow.waitFor();
  const cells = async (row: typeof appRow) => (await row.getByRole('cell').allTextContents()).map((c) => c.trim());
  assert.deepEqual(await cells(appRow), ['GET /2/posts/{id}', 'App (bearer token)', '450', appRemaining, appReset.slice(0, 19).replace('T', ' ')]);
  assert.equal(await appRow.locator('time').getAttribute('datetime'), appReset);
  const danaRow = table.getByRole('row', { name: new RegExp(`GET /2/users/me @${dana.username}`) });
  assert.deepEqual((await cells(danaRow)).slice(2, 4), [me.headers.get('x-rate-limit-limit'), me.headers.get('x-rate-limit-remaining')]);
  await page.screenshot({ path: `${SHOTS}/console-remaining.png`, fullPage: true });

  // Reading the page spent nothing; the app's next request spends one, and the page shows it.
  await page.reload();
  assert.equal((await cells(appRow))[3], appRemaining);
  const next = await f.get(`/2/posts/${postId}`, { auth: f.appAuth });
  assert.equal(next.headers.get('x-rate-limit-remaining'), String(Number(appRemaining) - 1));
  await page.reload();
  assert.equal((await cells(appRow))[3], String(Number(appRemaining) - 1));
  // Another app's windows are not this one's.
  assert.equal(await page.getByRole('table', { name: 'Remaining requests' }).getByText(f.enterprise.id).count(), 0);
  await page.close();
});

test('connections in Chromium: "the open stream connections with a disconnect button" that ends the connection (ForceDisconnect)', { skip }, async () => {
  const stream = await StreamClient.open(plaza.urls.base_url, '/2/posts/sample/stream', f.selfServe.bearer_token);
  streams.push(stream);
  assert.equal(stream.status, 200);
  const [open] = await eventually(async () => {
    const rows = await db().selectFrom('stream_connections').selectAll().where('app_id', '=', f.selfServe.id).where('disconnected_at', 'is', null).execute();
    return rows.length === 1 ? rows : false;
  }, 'the connection recorded');

  const page = await signedInPage();
  await page.goto(`${plaza.urls.base_url}/developer/apps/${f.selfServe.id}/connections`);
  const row = page.locator(`#connection-${open!.id}`);
  await row.getByText('sample_stream', { exact: true }).waitFor();
  await page.screenshot({ path: `${SHOTS}/console-connections.png`, fullPage: true });
  await row.getByRole('button', { name: `Disconnect sample_stream connection ${open!.id}` }).click();
  await page.getByRole('status').filter({ hasText: 'Connection ended' }).waitFor();
  await stream.until(() => stream.ended, 'the stream to end');
  assert.ok(stream.messages().some((m) => JSON.stringify(m).includes('ForceDisconnect')), stream.raw.slice(-500));
  await page.getByRole('table', { name: 'Recently closed' }).getByText('ForceDisconnect').waitFor();
  assert.equal(await page.getByText('No stream is connected.').isVisible(), true);
  await page.close();
});

test('panels: "only the owner sees or changes an app": another person gets 404 and a forged resend or disconnect writes nothing; unknown ids are 404', async () => {
  const path = `/developer/apps/${f.selfServe.id}`;
  const stranger = new FormClient(plaza.urls.base_url);
  await stranger.signIn('bruno', f.user('bruno').password);
  for (const panel of ['webhooks', 'usage', 'connections']) assert.equal((await stranger.get(`${path}/${panel}`)).status, 404, panel);
  const csrf = formsOf((await stranger.get('/developer')).text)[0].fields._csrf;
  const anyDelivery = await db().selectFrom('webhook_deliveries').select('id').executeTakeFirst();
  const before = (await db().selectFrom('webhook_deliveries').select('id').execute()).length;
  const forged = await stranger.request('POST', `${path}/deliveries/resend`, { _csrf: csrf, delivery_id: anyDelivery?.id ?? '1' });
  assert.equal(forged.status, 404);
  assert.equal((await stranger.request('POST', `${path}/connections/disconnect`, { _csrf: csrf, connection_id: '00000000-0000-4000-8000-000000000000' })).status, 404);
  assert.equal((await db().selectFrom('webhook_deliveries').select('id').execute()).length, before, 'no delivery was queued');

  const owner = new FormClient(plaza.urls.base_url);
  await owner.signIn('ada', f.user('ada').password);
  const ownerCsrf = formsOf((await owner.get('/developer')).text)[0].fields._csrf;
  const unknown = await owner.request('POST', `${path}/deliveries/resend`, { _csrf: ownerCsrf, delivery_id: '42' });
  assert.equal(unknown.status, 404);
  assert.match(unknown.text, /Delivery not found/);
  assert.equal((await owner.request('POST', `${path}/deliveries/resend`, { delivery_id: '42' })).status, 403, 'CSRF as the other console forms');
  const gone = await owner.request('POST', `${path}/connections/disconnect`, { _csrf: ownerCsrf, connection_id: 'not-a-uuid' });
  assert.equal(gone.status, 404);
  assert.equal((await new FormClient(plaza.urls.base_url).get(`${path}/webhooks`)).status, 303, 'signed out: to the sign-in page');
});

