import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { hiddenAuthors, visibleTo } from '../../../src/platform/visibility/memory.js';
import { NOT_SILENCED, READABLE, SHOWN, type Condition } from '../../../src/platform/visibility/rule.js';
import { visibilitySql } from '../../../src/platform/visibility/sql.js';
import { startTestPlaza, type TestPlaza } from '../../support/server.js';
import { prng } from '../../query/corpus.js';

let plaza: TestPlaza;

before(async () => {
  plaza = await startTestPlaza();
});
after(() => plaza?.close());

type Rand = ReturnType<typeof prng>;
const LEAVES: Condition[] = [{ kind: 'author-public' }, { kind: 'author-is-viewer' }, { kind: 'viewer-follows-author' }, { kind: 'viewer-mutes-author' }, { kind: 'viewer-blocks-author' }];

/** A random condition of the rule language, up to `depth` levels of any / all / not. */
function condition(r: Rand, depth: number): Condition {
  if (depth === 0 || r.chance(0.3)) return r.pick(LEAVES);
  const kind = r.pick(['any', 'all', 'not'] as const);
  if (kind === 'not') return { kind, of: condition(r, depth - 1) };
  return { kind, of: Array.from({ length: 1 + r.int(2) }, () => condition(r, depth - 1)) };
}

/** Random protection flags and follows, mutes and blocks among the demo users, written to the store. */
async function randomGraph(r: Rand): Promise<Array<{ id: string; protected: number }>> {
  const db = plaza.ctx.store.db;
  const users = await db.selectFrom('users').select(['id']).orderBy('id').execute();
  for (const table of ['follows', 'mutes', 'blocks'] as const) await db.deleteFrom(table).execute();
  const authors = users.map((u) => ({ id: u.id, protected: r.chance(0.4) ? 1 : 0 }));
  for (const a of authors) await db.updateTable('users').set({ protected: a.protected }).where('id', '=', a.id).execute();
  const at = new Date().toISOString();
  let n = 0;
  for (const source of authors) {
    for (const target of authors) {
      if (source === target) continue;
      if (r.chance(0.3)) await db.insertInto('follows').values({ source_user_id: source.id, target_user_id: target.id, created_at: at }).execute();
      for (const table of ['mutes', 'blocks'] as const) {
        if (r.chance(0.15)) await db.insertInto(table).values({ id: String(++n), source_user_id: source.id, target_user_id: target.id, created_at: at }).execute();
      }
    }
  }
  return authors;
}

test('the visibility rule compiled to SQL and compiled to memory agree: for random graphs, viewers (and none) and conditions, the store finds the authors the predicate keeps', async () => {
  const db = plaza.ctx.store.db;
  for (const seed of [1, 2, 3]) {
    const r = prng(seed);
    const authors = await randomGraph(r);
    const conditions = [READABLE, NOT_SILENCED, SHOWN, ...Array.from({ length: 12 }, () => condition(r, 3))];
    for (const viewerId of [undefined, ...authors.map((a) => a.id)]) {
      const rel = async (table: 'follows' | 'mutes' | 'blocks') =>
        new Set(viewerId ? (await db.selectFrom(table).select('target_user_id').where('source_user_id', '=', viewerId).execute()).map((x) => x.target_user_id) : []);
      const relations = { follows: await rel('follows'), mutes: await rel('mutes'), blocks: await rel('blocks') };
      for (const c of conditions) {
        const inStore = (await db.selectFrom('users as a').select('a.id').where(visibilitySql(c, sql.ref('a.id'), viewerId)).execute()).map((x) => x.id).sort();
        const inMemory = authors.filter((a) => visibleTo(c, a, viewerId, relations)).map((a) => a.id).sort();
        const what = `seed ${seed}, viewer ${viewerId ?? 'none'}, ${JSON.stringify(c)}`;
        assert.deepEqual(inStore, inMemory, what);
        // hiddenAuthors, reading only the relations an author's fate depends on, hides the rest.
        const hidden = await hiddenAuthors(db, c, viewerId, authors);
        assert.deepEqual(authors.filter((a) => !hidden.has(a.id)).map((a) => a.id).sort(), inMemory, `hiddenAuthors: ${what}`);
      }
    }
  }
});
