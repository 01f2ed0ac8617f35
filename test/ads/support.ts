import crypto from 'node:crypto';
import http from 'node:http';
import OAuth from 'oauth-1.0a';
import { issueOAuth1AccessToken } from '../../src/auth/issue.js';
import { OffsetClock } from '../../src/clock.js';
import type { AccessLevel } from '../../src/store/schema.js';
import { fixtures } from '../support/fixtures.js';
import { gif, mp4, png } from '../support/media-files.js';
import { startTestPlaza, type CallResult, type OAuth1Credentials, type TestPlaza } from '../support/server.js';

/**
 * The advertising interface's test kit: a real Plaza on port 0 whose clock tests can move (rate
 * windows reset by moving it, never by sleeping), and calls signed with OAuth 1.0a by an
 * independent signer (the oauth-1.0a package) whose timestamps follow that clock.
 */
type Values = Record<string, string | number | boolean | Array<string | number>>;

export interface AdsCallOptions {
  /** A demo username (signs with its apps[0] token), explicit credentials, or no auth at all. */
  as?: string | OAuth1Credentials | null;
  query?: Values;
  form?: Values;
  json?: unknown;
  headers?: Record<string, string>;
  /** The host name the request is sent for (its Host header, and the URL it is signed for), as a client of the public platform's hosts sends it. */
  host?: string;
}

const toStrings = (v: Values[string]): string[] => (Array.isArray(v) ? v.map(String) : [String(v)]);

export function encodeQuery(values: Values): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(values)) for (const item of toStrings(v)) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(item)}`);
  return parts.join('&');
}

/** A request sent with its own Host header (fetch sends the URL's), read back as a Response. */
function sendWithHost(url: string, host: string, method: string, headers: Record<string, string>, body?: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { ...headers, host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve(new Response(Buffer.concat(chunks), { status: res.statusCode, headers: h }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function startAdsPlaza() {
  const clock = new OffsetClock();
  const plaza = await startTestPlaza({}, { clock });
  return adsFixtures(plaza, clock);
}

export function adsFixtures(plaza: TestPlaza, clock: OffsetClock) {
  const creds = plaza.creds;
  const app = creds.apps[0];
  const user = (username: string) => {
    const u = creds.users.find((x) => x.username === username);
    if (!u) throw new Error(`no demo user ${username}`);
    return u;
  };
  const credsOf = (username: string): OAuth1Credentials => ({
    consumer_key: app.consumer_key,
    consumer_secret: app.consumer_secret,
    token: user(username).access_token,
    token_secret: user(username).access_token_secret,
  });

  function sign(c: OAuth1Credentials, method: string, url: string, form?: Record<string, string | string[]>): string {
    const oauth = new OAuth({
      consumer: { key: c.consumer_key, secret: c.consumer_secret },
      signature_method: 'HMAC-SHA1',
      hash_function: (base, key) => crypto.createHmac('sha1', key).update(base).digest('base64'),
    });
    oauth.getTimeStamp = () => Math.floor(clock.now().getTime() / 1000);
    const token = c.token ? { key: c.token, secret: c.token_secret ?? '' } : undefined;
    return oauth.toHeader(oauth.authorize({ url, method, data: form }, token)).Authorization;
  }

  async function request<T = any>(base: string, method: string, path: string, o: AdsCallOptions = {}): Promise<CallResult<T>> {
    const query = o.query ? encodeQuery(o.query) : '';
    const url = `${base}${path}${query ? (path.includes('?') ? '&' : '?') + query : ''}`;
    const headers: Record<string, string> = { ...o.headers };
    let body: string | undefined;
    let signedForm: Record<string, string | string[]> | undefined;
    if (o.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = encodeQuery(o.form);
      signedForm = Object.fromEntries(Object.entries(o.form).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]));
    } else if (o.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof o.json === 'string' ? o.json : JSON.stringify(o.json);
    }
    const as = o.as === undefined ? 'ada' : o.as;
    const signedUrl = o.host === undefined ? url : `http://${o.host}${url.slice(base.length)}`;
    if (as !== null) headers.authorization = sign(typeof as === 'string' ? credsOf(as) : as, method, signedUrl, signedForm);
    const response = o.host === undefined ? await fetch(url, { method, headers, body }) : await sendWithHost(url, o.host, method, headers, body);
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text.length > 0) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  const on = (base: () => string) => ({
    get: <T = any>(path: string, o?: AdsCallOptions) => request<T>(base(), 'GET', path, o),
    post: <T = any>(path: string, o?: AdsCallOptions) => request<T>(base(), 'POST', path, o),
    put: <T = any>(path: string, o?: AdsCallOptions) => request<T>(base(), 'PUT', path, o),
    del: <T = any>(path: string, o?: AdsCallOptions) => request<T>(base(), 'DELETE', path, o),
  });

  const ads = on(() => plaza.urls.ads_url);
  const sandbox = on(() => plaza.urls.ads_sandbox_url);

  return {
    plaza,
    clock,
    ads,
    sandbox,
    user,
    credsOf,
    /** The demo user's own production ads account (the first of its ads_account_ids). */
    accountOf: (username: string) => user(username).ads_account_ids[0],
    /** Moves the clock past every rate-limit window (15 minutes and a second). */
    nextWindow() {
      clock.offsetMs += 15 * 60 * 1000 + 1000;
    },
    /** A token of apps[0] for a demo user at another access level. */
    async tokenAt(username: string, level: AccessLevel): Promise<OAuth1Credentials> {
      const ctx = plaza.ctx;
      const issued = await ctx.store.db.transaction().execute((tx) => issueOAuth1AccessToken(ctx, tx, app.id, user(username).id, level));
      return { consumer_key: app.consumer_key, consumer_secret: app.consumer_secret, token: issued.token, token_secret: issued.secret };
    },
    /** A token of apps[1] (the enterprise app) for a demo user. */
    async enterpriseToken(username: string): Promise<OAuth1Credentials> {
      const ctx = plaza.ctx;
      const enterprise = creds.apps[1];
      const issued = await ctx.store.db.transaction().execute((tx) => issueOAuth1AccessToken(ctx, tx, enterprise.id, user(username).id, 'read-write'));
      return { consumer_key: enterprise.consumer_key, consumer_secret: enterprise.consumer_secret, token: issued.token, token_secret: issued.secret };
    },
    /** A fresh sandbox account of `username` with a funding instrument and a campaign. */
    async sandboxSetup(username = 'ada') {
      const account = (await sandbox.post('/12/accounts', { as: username })).body.data[0].id as string;
      const fi = await sandbox.post(`/12/accounts/${account}/funding_instruments`, {
        as: username,
        query: { currency: 'USD', start_time: '2020-01-01T00:00:00Z', type: 'CREDIT_CARD', credit_limit_local_micro: 900_000_000 },
      });
      const campaign = await sandbox.post(`/12/accounts/${account}/campaigns`, {
        as: username,
        query: { funding_instrument_id: fi.body.data.id, name: 'Sandbox campaign', daily_budget_amount_local_micro: 10_000_000 },
      });
      return { account, fundingInstrument: fi.body.data.id as string, campaign: campaign.body.data.id as string };
    },
  };
}

export type AdsKit = ReturnType<typeof adsFixtures>;

/** Query of a valid PROMOTED_POSTS / ENGAGEMENTS line item under `campaign`, with overrides. */
export function lineItemQuery(campaign: string, extra: Values = {}): Values {
  return {
    campaign_id: campaign,
    objective: 'ENGAGEMENTS',
    product_type: 'PROMOTED_POSTS',
    placements: 'ALL_ON_PLATFORM',
    start_time: '2030-01-01T00:00:00Z',
    ...extra,
  };
}

/**
 * Media for the creatives tests, uploaded as a client uploads it: POST /2/media/upload on the
 * platform listener with a media_category, then added to an ads account's media library.
 */
export function creativesKit(k: AdsKit) {
  const p = fixtures(k.plaza);
  const tokens = new Map<string, { bearer: string }>();
  const tokenOf = async (username: string) => {
    let t = tokens.get(username);
    if (!t) tokens.set(username, (t = await p.selfServeAs(username)));
    return t;
  };
  async function upload(username: string, bytes: Buffer, category: string): Promise<string> {
    const res = await p.send('POST', '/2/media/upload', { auth: await tokenOf(username), body: { media: bytes.toString('base64'), media_category: category } });
    if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.text}`);
    return res.body.data.media_key as string;
  }
  const kit = {
    p,
    tokenOf,
    upload,
    image: (username = 'ada', width = 64, height = 48) => upload(username, png(width, height), 'post_image'),
    gif: (username = 'ada') => upload(username, gif(40, 40), 'post_gif'),
    video: (username = 'ada', o: { width?: number; height?: number; durationMs?: number; category?: string } = {}) =>
      upload(username, mp4({ width: o.width ?? 1280, height: o.height ?? 720, durationMs: o.durationMs ?? 9_500 }), o.category ?? 'post_video'),
    /** Uploads and adds to the library of `account` on the sandbox listener; answers the media key. */
    async inLibrary(account: string, kind: 'image' | 'gif' | 'video' | 'promo', username = 'ada', extra: Record<string, string> = {}): Promise<string> {
      const key = kind === 'image' ? await kit.image(username) : kind === 'gif' ? await kit.gif(username) : await kit.video(username, { category: kind === 'promo' ? 'amplify_video' : 'post_video' });
      const res = await k.sandbox.post(`/12/accounts/${account}/media_library`, { as: username, query: { media_key: key, ...extra } });
      if (res.status !== 200) throw new Error(`media_library failed: ${res.status} ${res.text}`);
      return key;
    },
  };
  return kit;
}
