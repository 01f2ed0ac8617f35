import assert from 'node:assert/strict';
import path from 'node:path';
import v8 from 'node:v8';
import { before, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { ManualClock } from '../../src/clock.js';
import { parseSelection } from '../../src/platform/expansions.js';
import { lookupPosts, postExpansions } from '../../src/platform/posts/service.js';
import { call, startTestPlaza, type TestPlaza } from '../support/server.js';
import { fixtures } from '../support/fixtures.js';
import { problemType } from '../support/problems.js';

/**
 * The read path (src/platform/entities.ts, src/platform/expansions.ts): these tests read the same
 * things twice, change the store every way it can change in between (through the interface,
 * through another connection, through another Plaza), and expect the change at once. What is
 * still kept across requests (card URIs, authors' newest posts for timelines, rendered texts)
 * must never be served stale.
 */
const onSqlite = !process.env.DATABASE_URL;

/**
 * The texts of the queries sent to PostgreSQL while set. The hook is in place before Plaza
 * connects: each connection keeps the query method it found (src/store/prepared-statements.ts).
 */
let sentQueries: string[] | undefined;
const sendQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0] as { text?: string } | string;
  sentQueries?.push(typeof first === 'string' ? first : (first?.text ?? ''));
  return (sendQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

let plaza: TestPlaza;
let clock: ManualClock;
let t: ReturnType<typeof fixtures>;
let g: ReturnType<typeof fixtures>;
before(async () => {
  clock = new ManualClock();
  plaza = await startTestPlaza({}, { clock });
  t = fixtures(plaza);
  g = fixtures(plaza);
});

const read = async (id: string, auth = t.appAuth, base?: string) => {
  const res = base
    ? await fetch(`${base}/2/posts/${id}?post.fields=public_metrics,text`, { headers: { authorization: `Bearer ${(auth as { bearer: string }).bearer}` } }).then(async (r) => ({ status: r.status, body: (await r.json()) as any, text: '' }))
    : await t.get(`/2/posts/${id}?post.fields=public_metrics,text`, { auth });
  assert.equal(res.status, 200, res.text);
  return res.body.data as { text: string; public_metrics: Record<string, number> };
};

/** Runs `statement` (with ? placeholders) through a connection of its own to the store, outside Plaza. */
async function updateElsewhere(statement: string, params: string[]): Promise<void> {
  if (onSqlite) {
    const other = new SQLite(path.join(plaza.dataDir, 'plaza.sqlite'));
    try {
      other.prepare(statement).run(...params);
    } finally {
      other.close();
    }
    return;
  }
  const other = new pg.Client({ connectionString: plaza.databaseUrl });
  await other.connect();
  try {
    let n = 0;
    await other.query(statement.replace(/\?/g, () => `$${++n}`), params);
  } finally {
    await other.end();
  }
}

test('a read after a write through the API sees the write at once: a like and a reply change the counts of a post read before', async () => {
  const created = await t.send('POST', '/2/posts', { auth: await g.enterpriseAs('ada'), body: { text: 'Counted while kept' } });
  assert.equal(created.status, 201, created.text);
  const postId: string = created.body.data.id;
  const before = await read(postId);
  assert.deepEqual(await read(postId), before);
  const like = await t.send('POST', `/2/users/${t.user('dana').id}/likes`, { auth: await g.enterpriseAs('dana'), body: { post_id: postId } });
  assert.equal(like.status, 200, like.text);
  assert.equal((await read(postId)).public_metrics.like_count, before.public_metrics.like_count + 1);
  const reply = await t.send('POST', '/2/posts', { auth: await g.enterpriseAs('chen'), body: { text: 'A reply for the cache test', reply: { in_reply_to_post_id: postId } } });
  assert.equal(reply.status, 201, reply.text);
  assert.equal((await read(postId)).public_metrics.reply_count, before.public_metrics.reply_count + 1);
  const deleted = await t.send('DELETE', `/2/posts/${postId}`, { auth: await g.enterpriseAs('ada') });
  assert.equal(deleted.status, 200, deleted.text);
  const gone = await t.get(`/2/posts/${postId}`, { auth: t.appAuth });
  assert.equal(gone.body.data, undefined, 'a deleted post is not served from what was kept');
});

test('a change written into the store by another connection, outside Plaza, is seen on the next read', async () => {
  const postId = plaza.creds.sample.post_ids[1];
  const original = (await read(postId)).text;
  assert.equal((await read(postId)).text, original);
  const changed = `${original} (changed elsewhere)`;
  await updateElsewhere('UPDATE posts SET text = ? WHERE id = ?', [changed, postId]);
  assert.equal((await read(postId)).text, changed);
});

test("an author changed by another connection is seen on the next read of their post, which is itself unchanged (on PostgreSQL the post's version check reads the author's version too)", async () => {
  const postId = plaza.creds.sample.post_ids[2];
  const author = async () => {
    const res = await t.get(`/2/posts/${postId}?expansions=author_id`, { auth: t.appAuth });
    assert.equal(res.status, 200, res.text);
    return res.body.includes.users[0] as { id: string; name: string };
  };
  const before = await author();
  assert.deepEqual(await author(), before);
  const renamed = `${before.name} (renamed elsewhere)`;
  await updateElsewhere('UPDATE users SET name = ? WHERE id = ?', [renamed, before.id]);
  assert.equal((await author()).name, renamed);
});

/**
 * A second Plaza on the same store, started once for the tests that read through it (two instances
 * in one test process share its thread: one starting up while the other waits on SQLite's lock
 * would wait out the lock's timeout).
 */
let second: Promise<TestPlaza> | undefined;
const otherInstance = () => (second ??= startTestPlaza({ databaseUrl: plaza.databaseUrl }));

test('two Plaza instances on one store, each with its own kept rows: a write through one is seen by the next read through the other', async () => {
  const other = await otherInstance();
  const postId = plaza.creds.sample.post_ids[0];
  const bearer = other.creds.apps[0].bearer_token;
  const before = await read(postId, { bearer } as never, other.urls.base_url);
  await read(postId, { bearer } as never, other.urls.base_url);
  const like = await t.send('POST', `/2/users/${t.user('bruno').id}/likes`, { auth: await g.enterpriseAs('bruno'), body: { post_id: postId } });
  assert.equal(like.status, 200, like.text);
  assert.equal((await read(postId, { bearer } as never, other.urls.base_url)).public_metrics.like_count, before.public_metrics.like_count + 1);
});

test('two Plaza instances on one store: a post written through one shows on the next home and user timeline pages read through the other, however often it read them before (on PostgreSQL, once its generation settles, they are merged from its kept lists)', async () => {
  const ada = t.user('ada');
  const home = { bearer: (await g.enterpriseAs('ada')).bearer };
  const other = await otherInstance();
  const pages = async () => {
    const [own, user] = await Promise.all([
      call(other.urls.base_url, `/2/users/${ada.id}/timelines/reverse_chronological?max_results=100`, { auth: home }),
      call(other.urls.base_url, `/2/users/${ada.id}/posts?max_results=100`, { auth: { bearer: other.creds.apps[0].bearer_token } }),
    ]);
    assert.equal(own.status, 200, own.text);
    assert.equal(user.status, 200, user.text);
    return [own, user].map((res) => (res.body.data ?? []).map((p: { id: string }) => p.id) as string[]);
  };
  // Read often enough that the other instance keeps what it reads (a background commit may move the generation between reads).
  for (let i = 0; i < 6; i++) await pages();
  const posted = await t.send('POST', '/2/posts', { auth: await g.enterpriseAs('ada'), body: { text: 'Written through one instance, read through the other' } });
  assert.equal(posted.status, 201, posted.text);
  for (let i = 0; i < 6; i++) {
    for (const ids of await pages()) assert.equal(ids[0], posted.body.data.id, `read ${i + 1} after the write`);
  }
});

test('what is kept is the row, not the answer: a protected post read by an approved follower is still withheld from an app-only caller', async () => {
  const protectedId = plaza.creds.sample.post_ids[4];
  const asFollower = await t.get(`/2/posts/${protectedId}`, { auth: t.oauth2As('ada') });
  assert.equal(asFollower.body.data?.id, protectedId, asFollower.text);
  const asApp = await t.get(`/2/posts/${protectedId}`, { auth: t.appAuth });
  assert.equal(asApp.body.data, undefined);
  assert.equal(asApp.body.errors[0].type, problemType('not-authorized-for-resource'));
});

test('a revoked OAuth 2.0 token stops working on the very next request', async () => {
  const postId = plaza.creds.sample.post_ids[0];
  const chen = t.user('chen');
  const auth = { bearer: chen.oauth2_access_token };
  assert.equal((await t.get(`/2/posts/${postId}`, { auth })).status, 200);
  assert.equal((await t.get(`/2/posts/${postId}`, { auth })).status, 200);
  const app = t.selfServe;
  const revoke = await t.send('POST', '/2/oauth2/revoke', {
    headers: { authorization: `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString('base64')}` },
    form: { token: chen.oauth2_access_token, token_type_hint: 'access_token' },
  });
  assert.equal(revoke.status, 200, revoke.text);
  assert.equal((await t.get(`/2/posts/${postId}`, { auth })).status, 401);
});

test("blocking a user takes effect on the next request: the blocked author's posts leave the home timeline read just before", async () => {
  const dana = t.user('dana');
  const ada = t.user('ada');
  const auth = await g.enterpriseAs('dana', ['post.read', 'users.read', 'block.write', 'follows.write', 'tweet.write', 'offline.access']);
  await t.send('POST', `/2/users/${dana.id}/following`, { auth, body: { target_user_id: ada.id } });
  const posted = await t.send('POST', '/2/posts', { auth: await g.enterpriseAs('ada'), body: { text: 'Seen by dana until she blocks' } });
  assert.equal(posted.status, 201, posted.text);
  const home = () => t.get(`/2/users/${dana.id}/timelines/reverse_chronological?max_results=100`, { auth });
  const ids = async () => ((await home()).body.data ?? []).map((p: { id: string }) => p.id);
  assert.ok((await ids()).includes(posted.body.data.id));
  assert.ok((await ids()).includes(posted.body.data.id));
  const block = await t.send('POST', `/2/users/${dana.id}/blocking`, { auth, body: { target_user_id: ada.id } });
  assert.equal(block.status, 200, block.text);
  assert.ok(!(await ids()).includes(posted.body.data.id));
});

test('a lookup inside a transaction reads through it: it sees the transaction\'s own change, and nothing uncommitted is kept after a rollback', async () => {
  const { ctx } = plaza;
  const postId = plaza.creds.sample.post_ids[2];
  const original = (await read(postId)).text;
  const selection = parseSelection({}, postExpansions);
  await assert.rejects(
    ctx.store.db.transaction().execute(async (tx) => {
      await tx.updateTable('posts').set({ text: 'uncommitted' }).where('id', '=', postId).execute();
      const inside = await lookupPosts(ctx, { now: clock.now() }, [postId], 'ids', selection, tx);
      assert.equal(JSON.parse(JSON.stringify(inside.data[0])).text, 'uncommitted');
      throw new Error('roll back');
    }),
    /roll back/,
  );
  assert.equal((await read(postId)).text, original);
});

test('rows read have fast properties (one hidden class per table), whatever the driver built: every field read while rendering is then no hash lookup', async () => {
  v8.setFlagsFromString('--allow-natives-syntax');
  const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;
  const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  const { ctx } = plaza;
  const [a, b] = plaza.creds.sample.post_ids;
  // Read twice: the first may fill the cache, the second is served from it.
  for (let i = 0; i < 2; i++) {
    const posts = await ctx.entities.posts.read(ctx.store.db, [a, b]);
    assert.equal(posts.length, 2);
    for (const post of posts) assert.ok(hasFastProperties(post), 'a posts row (31 columns) with fast properties');
    assert.ok(haveSameMap(posts[0], posts[1]), 'two posts rows share their hidden class');
    const [user] = await ctx.entities.users.read(ctx.store.db, [posts[0].author_id]);
    assert.ok(hasFastProperties(user), 'a users row with fast properties');
  }
});

test('on PostgreSQL the reads of responses waiting in one turn of the event loop go to the store together: two lookups started at once read their posts in one query', { skip: onSqlite ? 'PostgreSQL only: a SQLite read is a call in the same process, sent at once' : false }, async () => {
  const { ctx } = plaza;
  const [first, second] = plaza.creds.sample.post_ids;
  const selection = parseSelection({}, postExpansions);
  const queries: string[] = [];
  sentQueries = queries;
  try {
    const answers = await Promise.all([first, second].map((id) => lookupPosts(ctx, { now: clock.now() }, [id], 'ids', selection)));
    assert.deepEqual(answers.map((a) => a.posts.map((p) => p.id)), [[first], [second]]);
  } finally {
    sentQueries = undefined;
  }
  const postReads = queries.filter((q) => q.startsWith('select * from "posts" where "id" in'));
  assert.ok(postReads.some((q) => q.includes('$2')), `one read of both posts:\n${postReads.join('\n')}`);
});

test('the write generation of a table moves with every write that could change it, not with OAuth 1.0a nonces or writes to other tables', { skip: onSqlite ? false : 'SQLite only: PostgreSQL checks row versions instead' }, async () => {
  const { store } = plaza.ctx;
  const posts0 = store.tableGeneration('posts');
  const users0 = store.tableGeneration('users');
  const postsAndMedia0 = store.tableGeneration('posts', 'media');
  await store.db.insertInto('oauth_nonces').values({ consumer_key: 'k', nonce: 'cache-test', timestamp: 1, created_at: clock.now().toISOString() }).execute();
  await store.db.deleteFrom('oauth_nonces').where('nonce', '=', 'cache-test').execute();
  assert.equal(store.tableGeneration('posts'), posts0);
  await sql`update webhook_deliveries set claimed_until = null where id = 'none'`.execute(store.db);
  assert.equal(store.tableGeneration('posts'), posts0, "a raw UPDATE names its table: the delivery workers' claims leave posts alone");
  await store.db.updateTable('users').set({ description: 'moved' }).where('id', '=', t.user('dana').id).execute();
  assert.notEqual(store.tableGeneration('users'), users0);
  assert.equal(store.tableGeneration('posts'), posts0);
  // Several tables' generation moves with a write to any of them, and with no other.
  assert.equal(store.tableGeneration('posts', 'media'), postsAndMedia0);
  await store.db.updateTable('media').set({ alt_text: 'moved' }).where('media_key', '=', 'none').execute();
  assert.notEqual(store.tableGeneration('posts', 'media'), postsAndMedia0);
  assert.equal(store.tableGeneration('posts'), posts0);
  await store.db.deleteFrom('follows').where('source_user_id', '=', 'nobody').execute();
  assert.notEqual(store.tableGeneration('posts'), posts0, 'a DELETE may cascade anywhere');
});

test('time moves kept rows on: once a poll has ended by the injected clock, its voting_status is computed afresh', async () => {
  const created = await t.send('POST', '/2/posts', { auth: await g.enterpriseAs('ada'), body: { text: 'Open for ten minutes', poll: { options: ['yes', 'no'], duration_minutes: 10 } } });
  assert.equal(created.status, 201, created.text);
  const get = () => t.get(`/2/posts/${created.body.data.id}?expansions=attachments.poll_ids&poll.fields=voting_status`, { auth: t.appAuth });
  assert.equal((await get()).body.includes.polls[0].voting_status, 'open');
  assert.equal((await get()).body.includes.polls[0].voting_status, 'open');
  clock.advance(10 * 60_000);
  assert.equal((await get()).body.includes.polls[0].voting_status, 'closed');
});

test("a post's card URI and its media's alt text changed by another connection are seen on the next answer that shows them, while the post row itself is unchanged (on PostgreSQL its text is kept under what the answer read of them)", async () => {
  const { db } = plaza.ctx.store;
  const post = await db
    .selectFrom('posts')
    .select(['id', 'author_id', 'media_keys'])
    .where('media_keys', '!=', '[]')
    .where('deleted_at', 'is', null)
    .where('superseded_by_id', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const mediaKey = (JSON.parse(post.media_keys) as string[])[0];
  const account = await db.selectFrom('ads_accounts').select('id').limit(1).executeTakeFirstOrThrow();
  type Extras = { id: string; card_uri?: string; media_metadata?: Array<{ media_key: string; alt_text?: string }> };
  // As the post's own answer shows them, and as its author's timeline does (on PostgreSQL the
  // first reads them with the post's version check, the second with the page query).
  const extras = async () => {
    const res = await t.get(`/2/posts/${post.id}?post.fields=card_uri,media_metadata`, { auth: t.appAuth });
    assert.equal(res.status, 200, res.text);
    const page = await t.get(`/2/users/${post.author_id}/posts?max_results=100&post.fields=card_uri,media_metadata`, { auth: t.appAuth });
    assert.equal(page.status, 200, page.text);
    assert.deepEqual((page.body.data as Extras[]).find((p) => p.id === post.id), res.body.data);
    return res.body.data as Extras;
  };
  const before = await extras();
  assert.equal(before.card_uri, undefined);
  assert.deepEqual(await extras(), before);

  await updateElsewhere('UPDATE media SET alt_text = ? WHERE media_key = ?', ['Described elsewhere', mediaKey]);
  assert.equal((await extras()).media_metadata?.find((m) => m.media_key === mediaKey)?.alt_text, 'Described elsewhere');

  const now = new Date().toISOString();
  await updateElsewhere("INSERT INTO ads_posts (post_id, account_id, card_uri, created_at, updated_at) VALUES (?, ?, 'card://elsewhere', ?, ?)", [post.id, account.id, now, now]);
  assert.equal((await extras()).card_uri, 'card://elsewhere');
  await updateElsewhere('DELETE FROM ads_posts WHERE post_id = ?', [post.id]);
  assert.equal((await extras()).card_uri, undefined);
});
