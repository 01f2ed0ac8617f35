import { issueOAuth1AccessToken, issueOAuth2Tokens } from '../../src/auth/issue.js';
import { eventsAfter } from '../../src/events/log.js';
import type { Tier } from '../../src/store/schema.js';
import { fixtures, type TestPlaza } from '../support/server.js';

/** Every OAuth 2.0 scope the graph's endpoints ask for. */
export const ALL_SCOPES = [
  'post.read', 'post.write', 'users.read', 'follows.read', 'follows.write', 'like.read', 'like.write', 'bookmark.read', 'bookmark.write',
  'block.read', 'block.write', 'mute.read', 'mute.write', 'list.read', 'list.write', 'dm.read', 'dm.write', 'space.read', 'offline.access',
];

/**
 * Fixtures for the graph's tests over the demo workspace: user tokens of the enterprise app
 * (apps[1]) or of the self-serve app (apps[0]) with every scope, tier changes and the event log.
 */
export function graphFixtures(plaza: TestPlaza) {
  const f = fixtures(plaza);
  const ctx = plaza.ctx;
  const tokens = new Map<string, { bearer: string }>();
  const oauth2 = async (app: 'selfServe' | 'enterprise', username: string, scopes = ALL_SCOPES) => {
    const key = `${app}:${username}:${scopes.join(' ')}`;
    if (!tokens.has(key)) {
      const issued = await ctx.store.db.transaction().execute((tx) => issueOAuth2Tokens(ctx, tx, f[app].id, f.user(username).id, scopes));
      tokens.set(key, { bearer: issued.accessToken });
    }
    return tokens.get(key)!;
  };
  return {
    ...f,
    /** An OAuth 2.0 user token of the enterprise app. */
    enterpriseAs: (username: string, scopes?: string[]) => oauth2('enterprise', username, scopes),
    /** An OAuth 2.0 user token of the self-serve (pro) app with every scope. */
    selfServeAs: (username: string, scopes?: string[]) => oauth2('selfServe', username, scopes),
    /** An OAuth 1.0a user context of the enterprise app, at the given access level. */
    async enterpriseOAuth1As(username: string, level: 'read' | 'read-write' | 'read-write-directmessages' = 'read-write-directmessages') {
      const issued = await ctx.store.db.transaction().execute((tx) => issueOAuth1AccessToken(ctx, tx, f.enterprise.id, f.user(username).id, level));
      return { oauth1: { consumer_key: f.enterprise.consumer_key, consumer_secret: f.enterprise.consumer_secret, token: issued.token, token_secret: issued.secret } };
    },
    async setTier(app: 'selfServe' | 'enterprise', tier: Tier) {
      await ctx.store.db.updateTable('apps').set({ tier }).where('id', '=', f[app].id).execute();
    },
    /** The log's last sequence number: read events after it. */
    async lastSeq(): Promise<number> {
      const rows = await eventsAfter(ctx.store.db, 0, 1_000_000);
      return rows.length ? Number(rows[rows.length - 1].seq) : 0;
    },
    async eventsSince(seq: number, type?: string) {
      const rows = await eventsAfter(ctx.store.db, seq, 10_000);
      return rows.filter((e) => !type || e.type === type).map((e) => ({ ...e, payload: JSON.parse(e.payload) }));
    },
    async userRow(username: string) {
      return ctx.store.db.selectFrom('users').selectAll().where('id', '=', f.user(username).id).executeTakeFirstOrThrow();
    },
    async postRow(id: string) {
      return ctx.store.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    },
  };
}

export type GraphFixtures = ReturnType<typeof graphFixtures>;
