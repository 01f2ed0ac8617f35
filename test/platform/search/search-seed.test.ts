import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { seedPosts } from '../../../scripts/seed-posts.js';
import { tokenize } from '../../../src/query/ast.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';

/** The benchmarks' seeder (scripts/seed-posts.ts), on whichever store the suite runs. */
let plaza: TestPlaza;

before(async () => {
  plaza = await startTestPlaza();
});

async function postIndexes(): Promise<string[]> {
  if (plaza.ctx.store.dialect !== 'postgres') return [];
  const rows = await sql<{ indexdef: string }>`select indexdef from pg_indexes where schemaname = current_schema() and tablename = 'posts' order by indexname`.execute(plaza.ctx.store.db);
  return rows.rows.map((r) => r.indexdef);
}

test('the seeder writes posts that search finds, its bulk load (indexes dropped, then built again) leaving every index of posts as it was', async () => {
  const db = plaza.ctx.store.db;
  const indexes = await postIndexes();
  const before = Number((await db.selectFrom('posts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const now = new Date(plaza.ctx.clock.now().getTime() - 60_000);
  const seeded = await seedPosts(db, { dialect: plaza.ctx.store.dialect, count: 3000, users: 20, days: 5, now, bulkIndexes: true });
  assert.deepEqual(await postIndexes(), indexes);
  const after = Number((await db.selectFrom('posts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  assert.equal(after - before, 3000);

  const author = await db.selectFrom('users').select(['id', 'username']).where('username', '=', seeded.usernames[3]).executeTakeFirstOrThrow();
  const own = await db.selectFrom('posts').select(['id', 'text']).where('author_id', '=', author.id).execute();
  const expected = own.filter((p) => tokenize(p.text).includes('plaza')).map((p) => p.id).sort();
  assert.ok(expected.length > 0, 'the generated corpus uses its common words');
  const found: string[] = [];
  let token: string | undefined;
  do {
    const res = await fetch(`${plaza.urls.base_url}/2/posts/search/recent?query=${encodeURIComponent(`plaza from:${author.username}`)}&max_results=100${token ? `&next_token=${token}` : ''}`, {
      headers: { authorization: `Bearer ${plaza.creds.apps[0].bearer_token}` },
    });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    found.push(...(body.data ?? []).map((p: { id: string }) => p.id));
    token = body.meta.next_token;
  } while (token);
  assert.deepEqual(found.sort(), expected);
});
