import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { hashToken } from '../../src/auth/tokens.js';
import { ManualClock } from '../../src/clock.js';
import { call, oauth1Header, startTestPlaza, type TestPlaza } from '../support/server.js';
import { escapeHtml, html } from '../../src/web/html.js';
import { createTestApp, FormClient, formsOf } from './support.js';
import { fixtures } from '../support/fixtures.js';

let plaza: TestPlaza;
let f: ReturnType<typeof fixtures>;
const clock = new ManualClock(new Date());

before(async () => {
  plaza = await startTestPlaza({}, { clock });
  f = fixtures(plaza);
});

const browser = () => new FormClient(plaza.urls.base_url);

async function requestToken(app: { consumer_key: string; consumer_secret: string }, callback: string) {
  const form = { oauth_callback: callback };
  const res = await call(plaza.urls.base_url, '/oauth/request_token', {
    method: 'POST',
    form,
    headers: { authorization: oauth1Header(app, 'POST', `${plaza.urls.base_url}/oauth/request_token`, form) },
  });
  assert.equal(res.status, 200, res.text);
  return new URLSearchParams(res.text).get('oauth_token')!;
}

test('templates escape every interpolated value; only the templates\' own markup is markup', () => {
  const evil = `<script>alert("x")</script>'&`;
  assert.equal(html`<p title="${evil}">${evil}</p>`.value, `<p title="${escapeHtml(evil)}">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;</p>`);
  assert.equal(html`<ul>${['a', '<b>'].map((x) => html`<li>${x}</li>`)}</ul>`.value, '<ul><li>a</li><li>&lt;b&gt;</li></ul>');
});

test('pages: sign-up creates an account, signs the person in and leads on; the username is unique (case-insensitively)', async () => {
  const b = browser();
  const form = await b.get('/signup?next=/developer');
  assert.equal(form.status, 200);
  assert.match(form.text, /<label for="f-username">Username<\/label>/);
  assert.match(form.text, /autocomplete="new-password"/);
  const res = await b.submit(form, '/signup', { name: 'Eve Example', username: 'eve_1', email: 'Eve@Example.com', password: 'correct horse' });
  assert.equal(res.status, 303);
  assert.equal(res.location, '/developer');
  const consolePage = await b.get('/developer');
  assert.match(consolePage.text, /Signed in as <strong>@eve_1<\/strong>/);
  const row = await plaza.ctx.store.db.selectFrom('users').selectAll().where('username_lower', '=', 'eve_1').executeTakeFirstOrThrow();
  assert.equal(row.email, 'eve@example.com');
  assert.match(row.password_hash ?? '', /^scrypt\$/);
  assert.equal(row.email_confirmed, 1, 'development mode counts the address as confirmed (no mail leaves Plaza)');

  const again = await browser().submit(await browser().get('/signup'), '/signup', { name: 'Other', username: 'EVE_1', email: 'other@example.com', password: 'long enough' });
  assert.equal(again.status, 403, 'a form from another browser has another CSRF secret');
  const b2 = browser();
  const dup = await b2.submit(await b2.get('/signup'), '/signup', { name: 'Other', username: 'EVE_1', email: 'eve@example.com', password: 'short' });
  assert.equal(dup.status, 400);
  assert.match(dup.text, /That username is taken/);
  assert.match(dup.text, /An account with that email address already exists/);
  assert.match(dup.text, /A password has 8 to 128 characters/);
  assert.match(dup.text, /role="alert"/);
  assert.match(dup.text, /aria-describedby="f-username-hint f-username-error"/);
  assert.match(dup.text, /aria-invalid="true"/);
  assert.doesNotMatch(dup.text, /value="short"/, 'the password is never echoed back');
});

test('pages: sign-in with username or email; a wrong password is 401 with the error announced; the next page is local only', async () => {
  const b = browser();
  const wrong = await b.submit(await b.get('/login'), '/login', { username: 'ada', password: 'nope' });
  assert.equal(wrong.status, 401);
  assert.match(wrong.text, /The username or password is wrong/);
  assert.match(wrong.text, /value="ada"/);
  const byEmail = await b.submit(await b.get('/login?next=/developer/apps/1'), '/login', { username: 'ADA@plaza.example', password: f.user('ada').password });
  assert.equal(byEmail.status, 303);
  assert.equal(byEmail.location, '/developer/apps/1');
  for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
    const c = browser();
    const res = await c.submit(await c.get(`/login?next=${encodeURIComponent(next)}`), '/login', { username: 'ada', password: f.user('ada').password });
    assert.equal(res.location, '/developer', `next=${next} is not followed`);
  }
});

test('sessions: the cookie is HttpOnly and SameSite=Lax (Secure and __Host- over https), holds a random token, and the store keeps only its hash', async () => {
  const b = browser();
  const login = await b.get('/login');
  const res = await b.submit(login, '/login', { username: 'bruno', password: f.user('bruno').password });
  const cookie = res.setCookies.find((c) => c.startsWith('plaza_session='))!;
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  assert.doesNotMatch(cookie, /Secure/, 'plain http in development mode cannot keep a Secure cookie');
  const token = b.cookies.get('plaza_session')!;
  const rows = await plaza.ctx.store.db.selectFrom('web_sessions').selectAll().where('user_id', '=', f.user('bruno').id).execute();
  assert.ok(rows.some((r) => r.token_hash === hashToken(token)));
  assert.equal(JSON.stringify(rows).includes(token), false);
  const csrfCookie = login.setCookies.find((c) => c.startsWith('plaza_csrf='))!;
  assert.match(csrfCookie, /HttpOnly/);
  assert.match(csrfCookie, /SameSite=Lax/);
});

test('sessions: signing in again starts a new session (no fixation); signing out ends it; sessions end after 14 days', async () => {
  const b = browser();
  await b.signIn('chen', f.user('chen').password);
  const first = b.cookies.get('plaza_session');
  assert.equal((await b.get('/login')).status, 303, 'a signed-in person is sent on from the sign-in page');
  const token = await requestToken(f.selfServe, 'oob');
  const forced = await b.get(`/oauth/authorize?oauth_token=${token}&force_login=true`);
  await b.submit(forced, '/oauth/authorize', { decision: 'allow', username: 'chen', password: f.user('chen').password });
  assert.ok(b.cookies.get('plaza_session'));
  assert.notEqual(b.cookies.get('plaza_session'), first);
  const stale = browser();
  stale.cookies.set('plaza_session', first!);
  assert.equal((await stale.get('/developer')).status, 303, 'the old session no longer signs anyone in');

  const signedIn = await b.get('/developer');
  const out = await b.submit(signedIn, '/logout');
  assert.equal(out.status, 303);
  assert.equal(b.cookies.has('plaza_session'), false);
  assert.equal((await b.get('/developer')).status, 303);

  const c = browser();
  await c.signIn('chen', f.user('chen').password);
  clock.advance(14 * 24 * 60 * 60 * 1000);
  try {
    assert.equal((await c.get('/developer')).status, 303, 'expired after 14 days');
  } finally {
    clock.advance(-14 * 24 * 60 * 60 * 1000);
  }
});

test('CSRF: every form carries a token; a POST without it, with a wrong one, or from another browser\'s page is refused with 403', async () => {
  const b = browser();
  await b.signIn('dana', f.user('dana').password);
  const page = await b.get('/developer');
  const forms = formsOf(page.text);
  assert.ok(forms.length >= 2);
  for (const form of forms) assert.ok(form.fields._csrf, `${form.action} has a CSRF token`);
  const noToken = await b.request('POST', '/developer/apps', { name: 'x', tier: 'pro', callback_urls: '' });
  assert.equal(noToken.status, 403);
  assert.match(noToken.text, /This form has expired/);
  const wrong = await b.submit(page, '/developer/apps', { _csrf: 'forged', name: 'x', tier: 'pro' });
  assert.equal(wrong.status, 403);
  const other = browser();
  await other.signIn('ada', f.user('ada').password);
  const crossSite = await other.submit(page, '/developer/apps', { name: 'x', tier: 'pro' });
  assert.equal(crossSite.status, 403, 'a token is only good with its own browser\'s secret cookie');
  const signIn = await browser().request('POST', '/login', { username: 'ada', password: f.user('ada').password });
  assert.equal(signIn.status, 403, 'the sign-in form is protected too (no login CSRF)');
  const ok = await b.submit(page, '/developer/apps', { name: 'CSRF ok', tier: 'pro', callback_urls: '' });
  assert.equal(ok.status, 303);
});

test('pages: no caching, no framing, no scripts, no referrer (headers of every page)', async () => {
  for (const path of ['/login', '/signup', '/oauth/authorize?oauth_token=x', '/i/oauth2/authorize']) {
    const res = await browser().get(path);
    assert.equal(res.headers.get('cache-control'), 'no-store', path);
    assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'.*frame-ancestors 'none'/, path);
    assert.doesNotMatch(res.headers.get('content-security-policy') ?? '', /script-src/, path);
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer', path);
    assert.doesNotMatch(res.text, /<script/i, path);
  }
  const css = await browser().get('/assets/plaza.css');
  assert.equal(css.status, 200);
  assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
});

test('authorize: "oauth_callback is refused on authorize" (spec rule 1), on authenticate too', async () => {
  const token = await requestToken(f.selfServe, 'oob');
  for (const path of ['/oauth/authorize', '/oauth/authenticate']) {
    const res = await browser().get(`${path}?oauth_token=${token}&oauth_callback=${encodeURIComponent('https://evil.example/')}`);
    assert.equal(res.status, 400, path);
    assert.match(res.text, /oauth_callback is not accepted here/);
  }
});

test('authenticate: "Desktop applications must use authorize, not authenticate" (spec rule 2): an oob request token is refused there', async () => {
  const token = await requestToken(f.selfServe, 'oob');
  const res = await browser().get(`/oauth/authenticate?oauth_token=${token}`);
  assert.equal(res.status, 400);
  assert.match(res.text, /Use \/oauth\/authorize for PIN sign-in/);
  assert.equal((await browser().get(`/oauth/authorize?oauth_token=${token}`)).status, 200);
});

test('authorize: an unknown or missing oauth_token gets a page saying so', async () => {
  assert.match((await browser().get('/oauth/authorize?oauth_token=unknown')).text, /no longer valid/);
  const missing = await browser().get('/oauth/authorize');
  assert.equal(missing.status, 400);
  assert.match(missing.text, /oauth_token parameter is missing/);
});

test('authorize: "force_login forces credential entry, screen_name prefills the username"', async () => {
  const b = browser();
  await b.signIn('ada', f.user('ada').password);
  const token = await requestToken(f.selfServe, 'http://127.0.0.1:5173/callback');
  const normal = await b.get(`/oauth/authorize?oauth_token=${token}`);
  assert.match(normal.text, /You are signed in as <strong>@ada<\/strong>/);
  assert.doesNotMatch(normal.text, /name="password"/);
  const forced = await b.get(`/oauth/authorize?oauth_token=${token}&force_login=true&screen_name=bruno`);
  assert.match(forced.text, /name="password"/);
  assert.match(forced.text, /id="f-username" name="username" type="text" value="bruno"/);
  const wrong = await b.submit(forced, '/oauth/authorize', { decision: 'allow', password: 'nope' });
  assert.equal(wrong.status, 401, 'the signed-in session is not enough under force_login');
  const res = await b.submit(forced, '/oauth/authorize', { decision: 'allow', password: f.user('bruno').password });
  assert.equal(res.status, 302);
  const approved = await plaza.ctx.store.db.selectFrom('oauth1_request_tokens').selectAll().where('token', '=', token).executeTakeFirstOrThrow();
  assert.equal(approved.user_id, f.user('bruno').id, 'the person who entered credentials is the one who authorized');
});

test('authenticate: "redirects without re-approval when the person already granted the app access and the app\'s sign-in setting is on"', async () => {
  const callback = 'https://signin.example/cb';
  const app = await createTestApp(plaza, f.user('ada').id, { callbackUrls: [callback], signInEnabled: true });
  const keys = { consumer_key: app.consumer_key, consumer_secret: app.consumer_secret };
  const b = browser();
  await b.signIn('dana', f.user('dana').password);
  const first = await b.get(`/oauth/authenticate?oauth_token=${await requestToken(keys, callback)}`);
  assert.equal(first.status, 200, 'no grant yet: the consent page');
  const approved = await b.submit(first, '/oauth/authorize', { decision: 'allow' });
  const verifier = new URL(approved.location!).searchParams.get('oauth_verifier')!;
  const rt = await plaza.ctx.store.db.selectFrom('oauth1_request_tokens').selectAll().where('user_id', '=', f.user('dana').id).where('app_id', '=', app.id).executeTakeFirstOrThrow();
  const form = { oauth_verifier: verifier };
  const exchanged = await call(plaza.urls.base_url, '/oauth/access_token', {
    method: 'POST',
    form,
    headers: { authorization: oauth1Header({ ...keys, token: rt.token, token_secret: rt.secret }, 'POST', `${plaza.urls.base_url}/oauth/access_token`, form) },
  });
  assert.equal(exchanged.status, 200);

  const silent = await b.get(`/oauth/authenticate?oauth_token=${await requestToken(keys, callback)}`);
  assert.equal(silent.status, 302, 'already granted: straight back to the app');
  assert.ok(new URL(silent.location!).searchParams.get('oauth_verifier'));

  const viaAuthorize = await b.get(`/oauth/authorize?oauth_token=${await requestToken(keys, callback)}`);
  assert.equal(viaAuthorize.status, 200, 'authorize always asks');

  const forced = await b.get(`/oauth/authenticate?oauth_token=${await requestToken(keys, callback)}&force_login=true`);
  assert.equal(forced.status, 200, '"the signed-in person unless force_login=true"');
  assert.match(forced.text, /name="password"/);

  const anonymous = await browser().get(`/oauth/authenticate?oauth_token=${await requestToken(keys, callback)}`);
  assert.equal(anonymous.status, 200, 'nobody signed in: the sign-in fields');

  await plaza.ctx.store.db.updateTable('apps').set({ sign_in_enabled: 0 }).where('id', '=', app.id).execute();
  const settingOff = await b.get(`/oauth/authenticate?oauth_token=${await requestToken(keys, callback)}`);
  assert.equal(settingOff.status, 200, 'the sign-in setting off: approval again');
});

test('authenticate: a grant of a lower access level than asked is not enough to skip approval', async () => {
  const callback = 'https://levels.example/cb';
  const app = await createTestApp(plaza, f.user('ada').id, { callbackUrls: [callback] });
  await plaza.ctx.store.db.insertInto('oauth1_tokens').values({
    token: `${f.user('chen').id}-readonlytokenreadonlytoken`, secret: 's', app_id: app.id, user_id: f.user('chen').id, access_level: 'read', created_at: clock.now().toISOString(), invalidated_at: null,
  }).execute();
  const b = browser();
  await b.signIn('chen', f.user('chen').password);
  const res = await b.get(`/oauth/authenticate?oauth_token=${await requestToken(app, callback)}`);
  assert.equal(res.status, 200);
});

test('authorize: denying sends the person back with ?denied=<request token>; the token cannot be used afterwards', async () => {
  const b = browser();
  const token = await requestToken(f.selfServe, 'http://127.0.0.1:5173/callback');
  const page = await b.get(`/oauth/authorize?oauth_token=${token}`);
  const res = await b.submit(page, '/oauth/authorize', { decision: 'deny' });
  assert.equal(res.status, 302);
  const back = new URL(res.location!);
  assert.equal(back.searchParams.get('denied'), token);
  assert.equal(back.searchParams.get('oauth_verifier'), null);
  assert.equal((await b.get(`/oauth/authorize?oauth_token=${token}`)).status, 400);
  const oob = await requestToken(f.selfServe, 'oob');
  const denied = await b.submit(await b.get(`/oauth/authorize?oauth_token=${oob}`), '/oauth/authorize', { decision: 'deny' });
  assert.equal(denied.status, 200);
  assert.match(denied.text, /You did not authorize Plaza Demo/);
});

test('console: a person creates an app (validated), sees its keys and tokens, and the app works at once', async () => {
  const b = browser();
  await b.signIn('chen', f.user('chen').password);
  const list = await b.get('/developer');
  assert.match(list.text, /You have no apps yet/);
  const invalid = await b.submit(list, '/developer/apps', { name: '', tier: 'gold', callback_urls: 'javascript:alert(1)\nnot a url' });
  assert.equal(invalid.status, 400);
  assert.match(invalid.text, /An app name has 1 to 50 characters/);
  assert.match(invalid.text, /Choose one of free, basic, pro, enterprise, pay-per-use/);
  assert.match(invalid.text, /cannot be a callback/);
  const created = await b.submit(list, '/developer/apps', { name: 'Chen\'s <App>', tier: 'basic', callback_urls: 'https://chen.example/cb\nmyapp://oauth', sign_in_enabled: 'on' });
  assert.equal(created.status, 303);
  const detail = await b.get(created.location!);
  assert.match(detail.text, /App created/);
  assert.match(detail.text, /<h1>Chen&#39;s &lt;App&gt;<\/h1>/);
  const app = await plaza.ctx.store.db.selectFrom('apps').selectAll().where('owner_user_id', '=', f.user('chen').id).executeTakeFirstOrThrow();
  assert.equal(app.tier, 'basic');
  assert.deepEqual(JSON.parse(app.callback_urls), ['https://chen.example/cb', 'myapp://oauth']);
  assert.equal(app.sign_in_enabled, 1);
  for (const value of [app.consumer_key, app.consumer_secret, app.client_id, app.client_secret]) assert.ok(detail.text.includes(value));
  const bearer = /id="bearer-token">(AAAA[^<]+)</.exec(detail.text)?.[1];
  assert.ok(bearer, 'the bearer token is shown');
  assert.equal((await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: bearer!.replace(/&amp;/g, '&') } })).status, 200);
  const list2 = await b.get('/developer');
  assert.match(list2.text, new RegExp(`href="/developer/apps/${app.id}"`));
});

test('console: regenerating keys and tokens replaces them, and the old ones stop working', async () => {
  const owner = f.user('dana');
  const app = await createTestApp(plaza, owner.id, { callbackUrls: ['https://dana.example/cb'] });
  const b = browser();
  await b.signIn('dana', owner.password);
  const path = `/developer/apps/${app.id}`;
  const bearerOn = (text: string) => /id="bearer-token">(AAAA[^<]+)</.exec(text)![1];
  const oldBearer = bearerOn((await b.get(path)).text);

  let res = await b.submit(await b.get(path), `${path}/regenerate`, { what: 'bearer_token' });
  assert.equal(res.status, 303);
  const page1 = await b.get(res.location!);
  assert.match(page1.text, /Bearer token regenerated/);
  const newBearer = bearerOn(page1.text);
  assert.notEqual(newBearer, oldBearer);
  assert.equal((await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: oldBearer } })).status, 401);
  assert.equal((await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: newBearer } })).status, 200);

  res = await b.submit(page1, `${path}/regenerate`, { what: 'consumer_keys' });
  const page2 = await b.get(res.location!);
  const row = await plaza.ctx.store.db.selectFrom('apps').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow();
  assert.notEqual(row.consumer_key, app.consumer_key);
  assert.ok(page2.text.includes(row.consumer_key));
  assert.equal((await f.get(`/2/posts/${plaza.creds.sample.post_ids[0]}`, { auth: { bearer: newBearer } })).status, 401, 'new consumer keys end the bearer token');

  res = await b.submit(page2, `${path}/regenerate`, { what: 'client_secret' });
  const page3 = await b.get(res.location!);
  const row2 = await plaza.ctx.store.db.selectFrom('apps').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow();
  assert.notEqual(row2.client_secret, app.client_secret);
  assert.ok(page3.text.includes(row2.client_secret));

  assert.match(page3.text, /Access token and secret for @dana/);
  res = await b.submit(page3, `${path}/regenerate`, { what: 'access_token' });
  const page4 = await b.get(res.location!);
  const token = /id="access-token">([^<]+)</.exec(page4.text)![1];
  const secret = /id="access-token-secret">([^<]+)</.exec(page4.text)![1];
  const me = await f.get('/2/users/me', { auth: { oauth1: { consumer_key: row2.consumer_key, consumer_secret: row2.consumer_secret, token, token_secret: secret } } });
  assert.equal(me.status, 200);
  assert.equal(me.body.data.username, 'dana');
  res = await b.submit(page4, `${path}/regenerate`, { what: 'access_token' });
  const me2 = await f.get('/2/users/me', { auth: { oauth1: { consumer_key: row2.consumer_key, consumer_secret: row2.consumer_secret, token, token_secret: secret } } });
  assert.equal(me2.status, 401, 'the previous access token stops working');
});

test('console: settings set callback URLs, tier and the sign-in setting; only the owner sees or changes an app', async () => {
  const app = await createTestApp(plaza, f.user('bruno').id, { callbackUrls: ['https://bruno.example/a'], tier: 'free', signInEnabled: true });
  const b = browser();
  await b.signIn('bruno', f.user('bruno').password);
  const path = `/developer/apps/${app.id}`;
  const page = await b.get(path);
  const form = formsOf(page.text).find((x) => x.action === `${path}/settings`)!;
  assert.equal(form.fields.callback_urls, 'https://bruno.example/a');
  assert.equal(form.fields.tier, 'free');
  const tooMany = await b.submit(page, `${path}/settings`, { callback_urls: Array.from({ length: 11 }, (_, i) => `https://b.example/${i}`).join('\n') });
  assert.equal(tooMany.status, 400);
  assert.match(tooMany.text, /at most 10 callback URLs/);
  const saved = await b.submit(page, `${path}/settings`, { name: 'Renamed', tier: 'enterprise', callback_urls: 'https://bruno.example/a\r\nhttps://bruno.example/b' });
  assert.equal(saved.status, 303);
  const row = await plaza.ctx.store.db.selectFrom('apps').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow();
  assert.equal(row.name, 'Renamed');
  assert.equal(row.tier, 'enterprise');
  assert.deepEqual(JSON.parse(row.callback_urls), ['https://bruno.example/a', 'https://bruno.example/b']);
  assert.equal(row.sign_in_enabled, 0, 'an unchecked box turns the sign-in setting off');
  assert.equal((await requestTokenStatus(row, 'https://bruno.example/b')), 200, 'the new callback URL is accepted by request_token');

  const stranger = browser();
  await stranger.signIn('ada', f.user('ada').password);
  assert.equal((await stranger.get(path)).status, 404);
  const strangerPage = await stranger.get('/developer');
  const forged = await stranger.request('POST', `${path}/settings`, { _csrf: formsOf(strangerPage.text)[0].fields._csrf, name: 'Mine', tier: 'pro', callback_urls: '' });
  assert.equal(forged.status, 404);
  assert.equal((await browser().get(path)).status, 303, 'signed out: to the sign-in page');
  assert.equal((await browser().get(path)).location, `/login?next=${encodeURIComponent(path)}`);
});

async function requestTokenStatus(app: { consumer_key: string; consumer_secret: string }, callback: string) {
  const form = { oauth_callback: callback };
  const res = await call(plaza.urls.base_url, '/oauth/request_token', {
    method: 'POST',
    form,
    headers: { authorization: oauth1Header(app, 'POST', `${plaza.urls.base_url}/oauth/request_token`, form) },
  });
  return res.status;
}
