import type { CredentialsFile } from '../../src/seed/credentials.js';
import { WebhookReceiver } from './receivers.js';
import { call, type CallOptions } from './server.js';
import { StreamClient } from './streams.js';

/**
 * What one test suite worker does in its own world (issue #36's "16 workers" scenario, shared by
 * test/worlds/scenario.test.ts and bench/worlds.ts): about 50 requests, each checked — a webhook
 * and an Account Activity subscription, a filtered-stream rule and its stream, ten posts, a like
 * through the enterprise app, a follow, lookups, timelines, a search — and it waits for its own
 * post on its stream and at its webhook. It reports what it saw of other worlds (their markers).
 */
export interface ScenarioResult {
  requests: number;
  /** Lines and deliveries that carried another world's marker: must be none. */
  foreign: string[];
}

const MARKER = /scenario-(w[0-9a-z]{10})/g;

export async function worldScenario(world: { id: string; credentials: CredentialsFile }, admin: (method: string, path: string, body?: unknown) => Promise<{ status: number; text: string }>): Promise<ScenarioResult> {
  const c = world.credentials;
  const marker = `scenario-${world.id}`;
  const user = (name: string) => c.users.find((u) => u.username === name)!;
  const enterprise = c.apps[1];
  const enterpriseOAuth1 = (name: string): CallOptions['auth'] => {
    const t = user(name).tokens.find((x) => x.app_id === enterprise.id)!;
    return { oauth1: { consumer_key: enterprise.consumer_key, consumer_secret: enterprise.consumer_secret, token: t.access_token, token_secret: t.access_token_secret } };
  };
  const enterpriseOAuth2 = (name: string): CallOptions['auth'] => ({ bearer: user(name).tokens.find((x) => x.app_id === enterprise.id)!.oauth2_access_token });
  let requests = 0;
  const api = async (method: string, path: string, auth: CallOptions['auth'], body?: unknown, expect = [200, 201]) => {
    requests++;
    const res = await call(c.base_url, path, { method, auth, ...(body === undefined ? {} : { body }) });
    if (!expect.includes(res.status)) throw new Error(`${world.id}: ${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
    return res.body;
  };

  const receiver = await new WebhookReceiver().start();
  receiver.secret = enterprise.consumer_secret;
  let stream: StreamClient | undefined;
  try {
    const hook = await api('POST', '/2/webhooks', { bearer: enterprise.bearer_token }, { url: receiver.url('hook') });
    await api('POST', `/2/account_activity/webhooks/${hook.data.id}/subscriptions/all`, enterpriseOAuth1('ada'));
    await api('POST', '/2/posts/search/stream/rules', { bearer: c.apps[0].bearer_token }, { add: [{ value: marker }] });
    requests++;
    stream = await StreamClient.open(c.base_url, '/2/posts/search/stream', c.apps[0].bearer_token);
    if (stream.status !== 200) throw new Error(`${world.id}: the filtered stream answered ${stream.status}`);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await api('POST', '/2/posts', enterpriseOAuth2('ada'), { text: `${marker} number ${i}` })).data.id);
    await api('POST', `/2/users/${user('chen').id}/likes`, enterpriseOAuth2('chen'), { post_id: ids[0] });
    await api('POST', `/2/users/${user('ada').id}/following`, enterpriseOAuth2('ada'), { target_user_id: user('chen').id });
    const likers = await api('GET', `/2/posts/${ids[0]}/liking_users`, enterpriseOAuth2('ada'));
    if (!likers.data?.some((u: { id: string }) => u.id === user('chen').id)) throw new Error(`${world.id}: the like is not listed`);
    const following = await api('GET', `/2/users/${user('ada').id}/following`, { bearer: enterprise.bearer_token });
    if (!following.data?.some((u: { id: string }) => u.id === user('chen').id)) throw new Error(`${world.id}: the follow is not listed`);
    for (const id of ids) await api('GET', `/2/posts/${id}?expansions=author_id`, { bearer: c.apps[0].bearer_token });
    for (let i = 0; i < 10; i++) await api('GET', `/2/users/${user('ada').id}/posts?max_results=5`, { bearer: c.apps[0].bearer_token });
    for (let i = 0; i < 10; i++) await api('GET', '/2/users/me', enterpriseOAuth2(['ada', 'chen', 'dana'][i % 3]!));
    // Recent search ends ten seconds before now: the world's clock moves on a minute.
    requests++;
    const moved = await admin('POST', `/admin/worlds/${world.id}/clock`, { advance: 'PT1M' });
    if (moved.status !== 200) throw new Error(`${world.id}: moving the clock answered ${moved.status}`);
    const found = await api('GET', `/2/posts/search/recent?query=${encodeURIComponent(`"${marker}"`)}&max_results=10`, { bearer: c.apps[0].bearer_token });
    if (found.meta.result_count !== 10) throw new Error(`${world.id}: search found ${found.meta.result_count} of its 10 posts`);
    await stream.until(() => stream!.raw.includes(ids[9]!), `${world.id}'s last post on its stream`, 20_000);
    await receiver.until(() => receiver.deliveries.some((d) => d.raw.includes(ids[9]!)), `${world.id}'s last post at its webhook`, 20_000);
    const seen = [stream.raw, ...receiver.deliveries.map((d) => d.raw)].join('\n');
    const foreign = [...seen.matchAll(MARKER)].map((m) => m[1]!).filter((id) => id !== world.id);
    return { requests, foreign };
  } finally {
    stream?.close();
    await receiver.close();
  }
}
