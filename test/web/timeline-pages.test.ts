import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { WebhookReceiver } from '../support/receivers.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { chromiumMissing, FormClient, formsOf, launchChromium } from './support.js';
import { fixtures } from '../support/fixtures.js';

/**
 * The home timeline with its composer (issue #17 "A signed-in person can do the same from the web
 * pages: a home timeline at /home with a composer (post, reply, quote, like, follow)"), in
 * Debian's Chromium, with an app's webhook subscribed to the person to see the events the actions
 * emit; the page rules that need no browser go through the cookie-keeping form client.
 */

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
let browser: Browser;
let person: BrowserContext;
const receiver = new WebhookReceiver();
const skip = chromiumMissing;
const SHOTS = '/tmp/plaza-shots';

before(async () => {
  await receiver.start();
  plaza = await startTestPlaza();
  f = fixtures(plaza);
  receiver.secret = f.selfServe.consumer_secret;
  if (!skip) {
    browser = await launchChromium();
    person = await browser.newContext({ viewport: { width: 1000, height: 1400 } });
  }
});

after(async () => {
  await browser?.close();
  await receiver.close();
});

async function newPage(): Promise<Page> {
  const page = await person.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

const db = () => plaza.ctx.store.db;

async function subscribe(username: string, path: string): Promise<void> {
  const hook = await f.send('POST', '/2/webhooks', { auth: f.appAuth, body: { url: receiver.url(path) } });
  assert.equal(hook.status, 200, hook.text);
  const sub = await f.send('POST', `/2/account_activity/webhooks/${hook.body.data.id}/subscriptions/all`, { auth: f.oauth1As(username) });
  assert.equal(sub.status, 200, sub.text);
}

test('/home in Chromium: "a signed-in person can post, reply, quote, like and follow from a home timeline with a composer", each emitting the events the public interfaces emit', { skip }, async () => {
  const [ada, chen] = [f.user('ada'), f.user('chen')];
  await subscribe(ada.username, 'ada-home');
  const page = await newPage();
  await page.goto(`${plaza.urls.base_url}/home`);
  await page.waitForURL(/\/login\?next=%2Fhome$/);
  await page.getByLabel('Username or email').fill('ada');
  await page.getByLabel('Password').fill(ada.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${plaza.urls.base_url}/home`);
  await page.getByRole('heading', { name: 'Home', exact: true }).waitFor();

  // Post, mentioning chen.
  await page.getByLabel('Post text').fill(`Hello from the composer @${chen.username}`);
  await page.getByRole('button', { name: 'Post', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Your post was sent.' }).waitFor();
  const post = await db().selectFrom('posts').selectAll().where('author_id', '=', ada.id).where('text', '=', `Hello from the composer @${chen.username}`).executeTakeFirstOrThrow();
  await page.locator(`#post-${post.id}`).getByText('Hello from the composer').waitFor();
  await receiver.until(() => receiver.on('ada-home').some((d) => d.body?.tweet_create_events?.some((p: any) => p.id === post.id)), 'tweet_create_events for the post');
  const api = await f.get(`/2/posts/${post.id}?post.fields=author_id`, { auth: f.appAuth });
  assert.equal(api.body.data.author_id, ada.id, 'the interface reads the post the page wrote');

  // Reply to it.
  await page.locator(`#post-${post.id}`).getByRole('link', { name: `Reply to post ${post.id}` }).click();
  await page.getByText(`Replying to @ada`).first().waitFor();
  await page.getByLabel('Post text').fill('A reply from the page');
  await page.getByRole('button', { name: 'Reply', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Your reply was sent.' }).waitFor();
  const replyRow = await db().selectFrom('posts').selectAll().where('text', '=', 'A reply from the page').executeTakeFirstOrThrow();
  assert.equal(JSON.parse(replyRow.referenced_posts)[0].id, post.id);
  await receiver.until(() => receiver.on('ada-home').some((d) => d.body?.tweet_create_events?.some((p: any) => p.id === replyRow.id)), 'tweet_create_events for the reply');

  // Quote it.
  await page.locator(`#post-${post.id}`).getByRole('link', { name: `Quote post ${post.id}` }).click();
  await page.getByLabel('Post text').fill('Quoting myself');
  await page.getByRole('button', { name: 'Quote', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Your quote was sent.' }).waitFor();
  const quote = await db().selectFrom('posts').selectAll().where('text', '=', 'Quoting myself').executeTakeFirstOrThrow();
  assert.deepEqual(JSON.parse(quote.referenced_posts), [{ type: 'quoted', id: post.id }]);
  await page.locator(`#post-${quote.id} blockquote`).getByText('Hello from the composer').waitFor();

  // Like it, then see the button turn into Unlike.
  await page.locator(`#post-${post.id}`).getByRole('button', { name: 'Like' }).click();
  await page.getByRole('status').filter({ hasText: 'Post liked.' }).waitFor();
  await page.locator(`#post-${post.id}`).getByRole('button', { name: 'Unlike' }).waitFor();
  assert.equal((await db().selectFrom('likes').select('id').where('user_id', '=', ada.id).where('post_id', '=', post.id).execute()).length, 1);
  await receiver.until(() => receiver.on('ada-home').some((d) => d.body?.favorite_events?.some((e: any) => e.favorited_status?.id === post.id)), 'favorite_events for the like');

  // Follow someone ada does not follow yet, by username; their posts join the timeline.
  const target = await db()
    .selectFrom('users')
    .selectAll()
    .where('id', '!=', ada.id)
    .where('protected', '=', 0)
    .where('id', 'not in', (eb) => eb.selectFrom('follows').select('target_user_id').where('source_user_id', '=', ada.id))
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const theirs = await f.send('POST', '/2/posts', { auth: f.oauth1As(target.username), body: { text: `Something by ${target.username}` } });
  assert.equal(theirs.status, 201, theirs.text);
  await page.getByLabel('Username to follow').fill(`@${target.username}`);
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'You follow this account now.' }).waitFor();
  await page.locator(`#post-${theirs.body.data.id}`).waitFor();
  await receiver.until(() => receiver.on('ada-home').some((d) => d.body?.follow_events?.some((e: any) => e.target?.id === target.id)), 'follow_events for the follow');
  await page.screenshot({ path: `${SHOTS}/home.png`, fullPage: true });
  await page.close();
});

test('/home: "bad input gets a clear error naming the problem and changes nothing": empty and over-long text, a reply to no post', async () => {
  const b = new FormClient(plaza.urls.base_url);
  await b.signIn('bruno', f.user('bruno').password);
  const home = await b.get('/home');
  assert.equal(home.status, 200);
  const before = (await db().selectFrom('posts').select('id').execute()).length;
  const empty = await b.submit(home, '/home/posts', { text: '   ' });
  assert.equal(empty.status, 400);
  assert.match(empty.text, /role="alert"/);
  assert.match(empty.text, /The `text` body field is missing or empty/);
  const long = await b.submit(home, '/home/posts', { text: 'x'.repeat(25_001) });
  assert.equal(long.status, 400);
  assert.match(long.text, /posts may be at most 25000 characters/);
  assert.ok(long.text.includes(`>${'x'.repeat(25_001)}</textarea>`), 'the text is kept for the person to fix');
  const noPost = await b.submit(home, '/home/posts', { text: 'a reply', reply_to: '1234567890123' });
  assert.ok(noPost.status >= 400 && noPost.status < 500, `got ${noPost.status}`);
  assert.equal((await db().selectFrom('posts').select('id').execute()).length, before, 'nothing was written');
  const noUser = await b.submit(home, '/home/follows', { username: 'nobody_here_x' });
  assert.equal(noUser.status, 404);
  assert.match(noUser.text, /There is no account @nobody_here_x/);
  const badReplyPage = await b.get('/home?reply_to=999999999');
  assert.equal(badReplyPage.status, 404);
});

test('/home: "CSRF protection as the existing console forms": a post without the form\'s token is refused and writes nothing; signed out, /home leads to sign-in', async () => {
  const b = new FormClient(plaza.urls.base_url);
  await b.signIn('dana', f.user('dana').password);
  const home = await b.get('/home');
  const form = formsOf(home.text).find((x) => x.action === '/home/posts')!;
  assert.ok(form.fields._csrf);
  const forged = await b.request('POST', '/home/posts', { text: 'forged post' });
  assert.equal(forged.status, 403);
  const other = new FormClient(plaza.urls.base_url);
  await other.signIn('chen', f.user('chen').password);
  const crossed = await other.request('POST', '/home/posts', { _csrf: form.fields._csrf, text: 'forged post' });
  assert.equal(crossed.status, 403, 'a token of another browser is refused');
  assert.equal((await db().selectFrom('posts').select('id').where('text', '=', 'forged post').execute()).length, 0);
  const out = await new FormClient(plaza.urls.base_url).get('/home');
  assert.equal(out.status, 303);
  assert.equal(out.location, '/login?next=%2Fhome');
  const outPost = await new FormClient(plaza.urls.base_url).request('POST', '/home/likes', { post_id: '1' });
  assert.equal(outPost.status, 403, 'no session, no CSRF secret: refused before anything');
});
