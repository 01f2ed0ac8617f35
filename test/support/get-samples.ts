import assert from 'node:assert/strict';
import { ALL_SCOPES, fixtures } from './fixtures.js';
import type { WebhookReceiver } from './receivers.js';
import type { TestPlaza } from './server.js';

/**
 * A sample request for every GET operation of an OpenAPI description (Plaza's own, or the public
 * platform's in tweet names): path segments and required query parameters filled from the demo
 * workspace and from things made through the interface first, every list parameter
 * (`expansions`, `*.fields`) given all its names. Shared by the tests that validate answers
 * against a description (test/platform/openapi-answers.test.ts, test/dialect/reference-answers.test.ts).
 */
/**
 * The operations no sample request is made for, and why: each needs state that only a longer
 * exchange makes (their own tests make it and check their answers field by field).
 */
export const NOT_SAMPLED: Readonly<Record<string, string>> = {
  '/2/chat/conversations/{id}': 'a chat conversation needs its participants\' keys first (test/platform/chats/)',
  '/2/chat/conversations/{id}/events': 'the same',
};

export interface SampledRequest {
  /** Path and query, or undefined with the parameter nothing could fill. */
  url?: string;
  missing?: string;
  auth: { bearer: string };
}

export async function prepareGetSamples(plaza: TestPlaza, receiver: WebhookReceiver) {
  const f = fixtures(plaza);
  const db = plaza.ctx.store.db;
  const ada = f.user('ada');
  const other = plaza.creds.users.find((u) => u.username !== 'ada')!;
  const post = plaza.creds.sample.post_ids[0];
  const mediaKey = plaza.creds.sample.media_keys[0];
  // The enterprise app may call every endpoint; its user token carries every scope.
  const userAuth = await f.enterpriseAs('ada', [...ALL_SCOPES, 'broadcast.read', 'broadcast.write', 'users.email']);
  const appAuth = { bearer: f.enterprise.bearer_token };
  // The community notes endpoints answer note writers only: dana is one in the demo workspace.
  const writerAuth = await f.enterpriseAs('dana');

  // Things the demo workspace does not hold, made through the interface.
  const dm = await f.send('POST', `/2/dm_conversations/with/${other.id}/messages`, { auth: userAuth, body: { text: 'hello from the description test' } });
  assert.equal(dm.status, 201, dm.text);
  receiver.secret = f.enterprise.consumer_secret;
  const webhook = await f.send('POST', '/2/webhooks', { auth: appAuth, body: { url: receiver.url('description') } });
  assert.equal(webhook.status, 200, webhook.text);
  const job = await f.send('POST', '/2/compliance/jobs', { auth: appAuth, body: { type: 'users' } });
  assert.equal(job.status, 200, job.text);
  const soon = Date.now() + 3_600_000;
  const broadcast = await f.send('POST', '/2/broadcasts/scheduled', { auth: userAuth, body: { source_id: 'rtmp-key-1', scheduled_start_ms: String(soon), scheduled_end_ms: String(soon + 3_600_000) } });
  assert.equal(broadcast.status, 201, broadcast.text);
  // Bookmark folders are made in the app, not through the interface: one is written as the app would.
  const folderId = '1880000000000000001';
  await db.insertInto('bookmark_folders').values({ id: folderId, user_id: ada.id, name: 'Reading', created_at: new Date().toISOString() }).execute();
  const first = async (table: 'communities' | 'news_stories' | 'spaces' | 'lists' | 'compliance_jobs' | 'webhooks', column = 'id') =>
    ((await db.selectFrom(table as 'lists').select(column as 'id').executeTakeFirst()) as { id: string } | undefined)?.id;
  const known: Record<string, string | undefined> = {
    dm_event: dm.body.data.dm_event_id,
    dm_conversation: dm.body.data.dm_conversation_id,
    folder: folderId,
    webhook: webhook.body.data.id,
    job: job.body.data.id,
    broadcast: broadcast.body.data.broadcast_id,
    community: await first('communities'),
    news: await first('news_stories'),
    // One of ada's own, so its ticket buyers are hers to see.
    space: (await db.selectFrom('spaces').select('id').where('creator_id', '=', ada.id).executeTakeFirst())?.id ?? (await first('spaces')),
    list: await first('lists'),
  };

  const segment = (path: string, name: string): string | undefined => {
    if (name === 'username') return 'ada';
    if (name === 'media_key') return mediaKey;
    if (name === 'folder_id') return known.folder;
    if (name === 'webhook_id') return known.webhook;
    if (name === 'woeid') return '1';
    if (name === 'event_id') return known.dm_event;
    if (name === 'dm_conversation_id') return known.dm_conversation;
    if (name === 'participant_id' || name === 'target_user_id') return other.id;
    if (/user|requester/.test(name)) return ada.id;
    if (name === 'id') {
      if (path.startsWith('/2/users/')) return ada.id;
      if (path.startsWith('/2/posts/') || path.startsWith('/2/tweets/')) return post;
      if (path.startsWith('/2/communities/')) return known.community;
      if (path.startsWith('/2/news/')) return known.news;
      if (path.startsWith('/2/spaces/')) return known.space;
      if (path.startsWith('/2/lists/')) return known.list;
      if (path.startsWith('/2/compliance/jobs/')) return known.job;
      if (path.startsWith('/2/broadcasts/scheduled/')) return known.broadcast;
      if (path.startsWith('/2/dm_conversations/')) return known.dm_conversation;
      return undefined;
    }
    if (/post|tweet/.test(name)) return post;
    return undefined;
  };
  const required: Record<string, string> = {
    ids: post,
    usernames: 'ada',
    query: 'the',
    user_ids: ada.id,
    media_keys: mediaKey,
    media_id: mediaKey.split('_')[1],
    type: 'users',
    test_mode: 'true',
    start_time: new Date(Date.now() - 86_400_000).toISOString().replace(/\.\d+Z$/, 'Z'),
    end_time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    granularity: 'day',
  };

  /** The sample request of one GET operation of a description. */
  return (path: string, op: { parameters?: any[]; security?: object[] }): SampledRequest => {
    let missing: string | undefined;
    const url = path.replace(/\{([^}]+)\}/g, (_m: string, name: string) => {
      const value = segment(path, name);
      if (value === undefined) missing ??= name;
      return value ?? '0';
    });
    const query = new URLSearchParams();
    for (const p of (op.parameters ?? []).filter((x) => x.in === 'query')) {
      if (p.schema?.type === 'array' && p.schema.items?.enum) query.set(p.name, p.schema.items.enum.join(','));
      else if (p.required) {
        if (p.name === 'ids' && path === '/2/spaces' && known.space) query.set('ids', known.space);
        else if (required[p.name] !== undefined) query.set(p.name, required[p.name]);
        else missing ??= p.name;
      }
    }
    const schemes = ((op.security ?? []) as object[]).flatMap((s) => Object.keys(s));
    const user = schemes.includes('UserToken') || (schemes.includes('OAuth2UserToken') && !schemes.includes('BearerToken'));
    const auth = !user ? appAuth : path.startsWith('/2/notes/') ? writerAuth : userAuth;
    return missing ? { missing, auth } : { url: `${url}?${query}`, auth };
  };
}
