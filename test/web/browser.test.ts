import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { chromiumMissing, launchChromium, onPlaza, startCallbackServer, twitterClient, type CallbackServer } from './support.js';
import { fixtures } from '../support/fixtures.js';

/**
 * The flows as a person meets them, in Debian's Chromium (playwright-core), with the real
 * twitter-api-v2 client as the app: it asks for tokens, the browser signs in and consents, the
 * app's callback server receives the result.
 */

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let browser: Browser;
let callback: CallbackServer;
/** The browser of the person who made the app and authorizes it. */
let person: BrowserContext;
let app: { consumerKey: string; consumerSecret: string; clientId: string; clientSecret: string };
const skip = chromiumMissing;

before(async () => {
  if (skip) return;
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  callback = await startCallbackServer();
  browser = await launchChromium();
  person = await browser.newContext();
});

after(async () => {
  if (skip) return;
  await browser?.close();
  await callback?.close();
});

async function newPage(context: BrowserContext = person): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

const consumerClient = () => twitterClient(plaza.urls.base_url, { appKey: app.consumerKey, appSecret: app.consumerSecret });
const requestClient = (link: { oauth_token: string; oauth_token_secret: string }) =>
  twitterClient(plaza.urls.base_url, { appKey: app.consumerKey, appSecret: app.consumerSecret, accessToken: link.oauth_token, accessSecret: link.oauth_token_secret });

test('console in Chromium: a person signs up, creates an app with a callback URL and the sign-in setting, and reads its keys', { skip }, async () => {
  const page = await newPage();
  await page.goto(`${plaza.urls.base_url}/developer`);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Name', { exact: true }).fill('Frida Builder');
  await page.getByLabel('Username', { exact: true }).fill('frida');
  await page.getByLabel('Email').fill('frida@example.com');
  await page.getByLabel('Password').fill('a good long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${plaza.urls.base_url}/developer`);
  await page.getByLabel('App name').fill('Frida\'s app');
  await page.getByLabel('Tier').selectOption('basic');
  await page.getByLabel('Callback URLs').fill(callback.url);
  assert.equal(await page.getByLabel('Allow this app to be used to sign in with Plaza').isChecked(), true);
  await page.getByRole('button', { name: 'Create app' }).click();
  await page.getByRole('status').filter({ hasText: 'App created' }).waitFor();
  app = {
    consumerKey: (await page.locator('#consumer-key').textContent())!,
    consumerSecret: (await page.locator('#consumer-secret').textContent())!,
    clientId: (await page.locator('#client-id').textContent())!,
    clientSecret: (await page.locator('#client-secret').textContent())!,
  };
  assert.match(app.consumerKey, /^[A-Za-z0-9]{25}$/);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login$/);
  await page.close();
});

test('three-legged flow in Chromium with a callback: sign in on the authorize page, approve, the app exchanges the verifier (twitter-api-v2)', { skip }, async () => {
  const link = await consumerClient().generateAuthLink(callback.url, { linkMode: 'authorize' });
  const page = await newPage();
  await page.goto(onPlaza(plaza.urls.base_url, link.url));
  await page.getByRole('heading', { name: 'Authorize Frida\'s app to use your account?' }).waitFor();
  await page.getByLabel('Username or email').fill('ada');
  await page.getByLabel('Password').fill(f.user('ada').password);
  await page.getByRole('button', { name: 'Sign in and authorize app' }).click();
  const back = await callback.next();
  await page.getByRole('heading', { name: 'Back at the app' }).waitFor();
  assert.equal(back.searchParams.get('oauth_token'), link.oauth_token);
  const login = await requestClient(link).login(back.searchParams.get('oauth_verifier')!);
  assert.equal(login.screenName, 'ada');
  assert.equal((await login.client.v2.get('users/me')).data.username, 'ada');
  await page.close();
});

test('authenticate in Chromium: "redirects without re-approval when the person already granted the app access and the app\'s sign-in setting is on"', { skip }, async () => {
  const link = await consumerClient().generateAuthLink(callback.url, { linkMode: 'authenticate' });
  const page = await newPage();
  await page.goto(onPlaza(plaza.urls.base_url, link.url));
  const back = await callback.next();
  await page.waitForURL((u) => u.href.startsWith(callback.url));
  assert.equal(back.searchParams.get('oauth_token'), link.oauth_token);
  const login = await requestClient(link).login(back.searchParams.get('oauth_verifier')!);
  assert.equal(login.screenName, 'ada', 'the signed-in person is used');
  await page.close();
});

test('authenticate in Chromium: "force_login forces credential entry, screen_name prefills the username", even for a person already signed in', { skip }, async () => {
  const link = await consumerClient().generateAuthLink(callback.url, { linkMode: 'authenticate', forceLogin: true, screenName: 'bruno' });
  const page = await newPage();
  await page.goto(onPlaza(plaza.urls.base_url, link.url));
  assert.equal(await page.getByLabel('Username or email').inputValue(), 'bruno');
  await page.getByLabel('Password').fill(f.user('bruno').password);
  await page.getByRole('button', { name: 'Sign in and authorize app' }).click();
  const back = await callback.next();
  const login = await requestClient(link).login(back.searchParams.get('oauth_verifier')!);
  assert.equal(login.screenName, 'bruno');
  await page.goto(`${plaza.urls.base_url}/developer`);
  await page.getByText('Signed in as @bruno').waitFor();
  await page.close();
});

test('three-legged flow in Chromium, PIN mode: "In oob mode the page shows the PIN", which the app exchanges', { skip }, async () => {
  const context = await browser.newContext();
  const link = await consumerClient().generateAuthLink('oob', { linkMode: 'authorize' });
  const page = await newPage(context);
  await page.goto(onPlaza(plaza.urls.base_url, link.url));
  await page.getByLabel('Username or email').fill('chen');
  await page.getByLabel('Password').fill(f.user('chen').password);
  await page.getByRole('button', { name: 'Sign in and authorize app' }).click();
  await page.getByRole('heading', { name: 'You authorized Frida\'s app' }).waitFor();
  const pin = (await page.locator('#oauth-pin').textContent())!;
  assert.match(pin, /^[0-9]{7}$/);
  const login = await requestClient(link).login(pin);
  assert.equal(login.screenName, 'chen');
  await context.close();
});

test('denial in Chromium: Cancel sends the person back to the app with ?denied=<request token>, and the app cannot exchange it', { skip }, async () => {
  const context = await browser.newContext();
  const link = await consumerClient().generateAuthLink(callback.url, { linkMode: 'authorize' });
  const page = await newPage(context);
  await page.goto(onPlaza(plaza.urls.base_url, link.url));
  await page.getByRole('button', { name: 'Cancel' }).click();
  const back = await callback.next();
  assert.equal(back.searchParams.get('denied'), link.oauth_token);
  assert.equal(back.searchParams.get('oauth_verifier'), null);
  await assert.rejects(requestClient(link).login('anything'));
  await context.close();
});

test('PKCE flow in Chromium: consent lists the scopes, the redirect carries state and code, twitter-api-v2 exchanges it', { skip }, async () => {
  const context = await browser.newContext();
  const client = twitterClient(plaza.urls.base_url, { clientId: app.clientId, clientSecret: app.clientSecret });
  const link = client.generateOAuth2AuthLink(callback.url, { scope: ['tweet.read', 'users.read', 'users.email', 'offline.access'] });
  const page = await newPage(context);
  await page.goto(onPlaza(plaza.urls.base_url, link.url));
  await page.getByRole('heading', { name: 'Frida\'s app wants to access your Plaza account' }).waitFor();
  for (const scope of ['tweet.read', 'users.read', 'users.email', 'offline.access']) await page.getByText(scope, { exact: true }).waitFor();
  await page.getByLabel('Username or email').fill('dana');
  await page.getByLabel('Password').fill(f.user('dana').password);
  await page.getByRole('button', { name: 'Sign in and authorize app' }).click();
  const back = await callback.next();
  assert.equal(back.searchParams.get('state'), link.state);
  const login = await client.loginWithOAuth2({ code: back.searchParams.get('code')!, codeVerifier: link.codeVerifier, redirectUri: callback.url });
  assert.deepEqual(login.scope, ['tweet.read', 'users.read', 'users.email', 'offline.access']);
  const me = await login.client.v2.get('users/me', { 'user.fields': 'confirmed_email' });
  assert.equal(me.data.username, 'dana');
  assert.equal(me.data.confirmed_email, 'dana@plaza.example');
  assert.ok(login.refreshToken);

  const denyLink = client.generateOAuth2AuthLink(callback.url, { scope: ['users.read'] });
  await page.goto(onPlaza(plaza.urls.base_url, denyLink.url));
  await page.getByRole('button', { name: 'Cancel' }).click();
  const denied = await callback.next();
  assert.equal(denied.searchParams.get('error'), 'access_denied');
  assert.equal(denied.searchParams.get('state'), denyLink.state);
  await context.close();
});

test('pages in Chromium work without JavaScript: the whole OAuth 1.0a consent runs with scripts disabled', { skip }, async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const link = await consumerClient().generateAuthLink('oob', { linkMode: 'authorize', screenName: 'dana' });
  const page = await newPage(context);
  await page.goto(onPlaza(plaza.urls.base_url, link.url));
  await page.getByLabel('Password').fill(f.user('dana').password);
  await page.keyboard.press('Enter');
  const pin = (await page.locator('#oauth-pin').textContent())!;
  assert.equal((await requestClient(link).login(pin)).screenName, 'dana', 'Enter submits the form\'s first button: authorize');
  await context.close();
});
