import { issueOAuth1AccessToken, issueOAuth2Tokens } from '../../src/auth/issue.js';
import { eventsAfter } from '../../src/events/log.js';
import type { Tier } from '../../src/store/schema.js';
import { png } from './media-files.js';
import { call, type CallOptions, type TestPlaza } from './server.js';

/** Every OAuth 2.0 scope of the platform interface: a user token with all of them can call anything its app may. */
export const ALL_SCOPES = [
  'post.read', 'post.write', 'post.moderate.write', 'users.read', 'follows.read', 'follows.write', 'like.read', 'like.write',
  'bookmark.read', 'bookmark.write', 'block.read', 'block.write', 'mute.read', 'mute.write', 'list.read', 'list.write',
  'dm.read', 'dm.write', 'space.read', 'media.write', 'timeline.read', 'offline.access',
];

/**
 * Named fixtures over the demo workspace of a test Plaza: its apps and users, their credentials
 * from the credentials file, fresh user tokens of either demo app (issued at the store's current
 * time, so they work however far a test moved its clock), calls to the platform listener, the
 * event log and the rows behind what the interface shows.
 */
export function fixtures(plaza: TestPlaza) {
  const { creds, ctx } = plaza;
  const user = (username: string) => {
    const u = creds.users.find((x) => x.username === username);
    if (!u) throw new Error(`no demo user ${username}`);
    return u;
  };
  const selfServe = creds.apps[0];
  const enterprise = creds.apps[1];
  const apps = { selfServe, enterprise };
  const oauth2 = async (app: keyof typeof apps, username: string, scopes = ALL_SCOPES) => {
    const issued = await ctx.store.db.transaction().execute((tx) => issueOAuth2Tokens(ctx, tx, apps[app].id, user(username).id, scopes));
    return { bearer: issued.accessToken };
  };
  const get = <T = any>(p: string, options: CallOptions = {}) => call<T>(plaza.urls.base_url, p, options);
  const send = <T = any>(method: string, p: string, options: CallOptions = {}) => call<T>(plaza.urls.base_url, p, { ...options, method });
  return {
    selfServe,
    enterprise,
    /** The self-serve app's app-only bearer token. */
    appAuth: { bearer: selfServe.bearer_token },
    user,
    /** The file's OAuth 1.0a user context of the self-serve app. */
    oauth1As: (username: string) => ({
      oauth1: { consumer_key: selfServe.consumer_key, consumer_secret: selfServe.consumer_secret, token: user(username).access_token, token_secret: user(username).access_token_secret },
    }),
    /** The file's OAuth 2.0 user token of the self-serve app. */
    oauth2As: (username: string) => ({ bearer: user(username).oauth2_access_token }),
    /** A fresh OAuth 2.0 user token of the self-serve (pro) app, with every scope unless told. */
    selfServeAs: (username: string, scopes?: string[]) => oauth2('selfServe', username, scopes),
    /** A fresh OAuth 2.0 user token of the enterprise app, with every scope unless told. */
    enterpriseAs: (username: string, scopes?: string[]) => oauth2('enterprise', username, scopes),
    /** A fresh OAuth 1.0a user context of the enterprise app, at the given access level. */
    async enterpriseOAuth1As(username: string, level: 'read' | 'read-write' | 'read-write-directmessages' = 'read-write-directmessages') {
      const issued = await ctx.store.db.transaction().execute((tx) => issueOAuth1AccessToken(ctx, tx, enterprise.id, user(username).id, level));
      return { oauth1: { consumer_key: enterprise.consumer_key, consumer_secret: enterprise.consumer_secret, token: issued.token, token_secret: issued.secret } };
    },
    async setTier(app: keyof typeof apps, tier: Tier) {
      await ctx.store.db.updateTable('apps').set({ tier }).where('id', '=', apps[app].id).execute();
    },
    get,
    send,
    /** POST /2/posts. */
    post: (auth: NonNullable<CallOptions['auth']>, body: Record<string, unknown>) => send('POST', '/2/posts', { auth, body }),
    /** A post as the self-serve app reads it, with the fields the posts tests look at. */
    async lookup(id: string, fields = 'author_id,conversation_id,in_reply_to_user_id,referenced_posts,public_metrics,edit_history_post_ids,edit_controls,attachments,entities,community_id,created_at,source,lang,paid_partnership,reply_settings') {
      const res = await get(`/2/posts/${id}?post.fields=${fields}`, { auth: { bearer: selfServe.bearer_token } });
      return res.body.data;
    },
    /** A simple upload of PNG bytes (base64 JSON); returns the upload's `data`. */
    async uploadPng(auth: { bearer: string }, width = 40, height = 30, category = 'post_image') {
      const res = await send('POST', '/2/media/upload', { auth, body: { media: png(width, height).toString('base64'), media_category: category } });
      if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${res.text}`);
      return res.body.data as { id: string; media_key: string };
    },
    /** The event log's last sequence number: read the events after it with eventsSince. */
    async lastSeq(): Promise<number> {
      const rows = await eventsAfter(ctx.store.db, 0, 1_000_000);
      return rows.length ? Number(rows[rows.length - 1].seq) : 0;
    },
    /** The events logged after `seq`, of one type unless told, with their payloads parsed. */
    async eventsSince(seq: number, type?: string) {
      const rows = await eventsAfter(ctx.store.db, seq, 10_000);
      return rows.filter((e) => !type || e.type === type).map((e) => ({ ...e, payload: JSON.parse(e.payload) }));
    },
    async postRow(id: string) {
      return ctx.store.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },
    async userRow(username: string) {
      return ctx.store.db.selectFrom('users').selectAll().where('id', '=', user(username).id).executeTakeFirstOrThrow();
    },
  };
}

export type Fixtures = ReturnType<typeof fixtures>;
