/**
 * The baseline of bench/lookup-large.ts: the plainest server that does the work of
 * GET /2/posts?ids=...&expansions=author_id,attachments.media_keys,referenced_posts.id, run in
 * its own process on the same store as Plaza. It reads the posts (`select *`), the posts they
 * reference, the authors of both and their media, and answers them with JSON.stringify: no field
 * selection, no rules, no caches.
 *
 *   node --import tsx bench/bare-lookup.ts <sqlite file | postgres:// url>   (prints its port)
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const target = process.argv[2];
if (!target) throw new Error('usage: bare-lookup.ts <sqlite file | postgres url>');

/** `select * from <table> where <column> in (...)`, on either store. */
type Select = (table: string, column: string, values: readonly string[]) => Promise<any[]>;

function sqliteSelect(file: string): Select {
  const db = new Database(file, { readonly: true });
  db.pragma('busy_timeout = 5000');
  return async (table, column, values) => (values.length ? db.prepare(`select * from ${table} where ${column} in (${values.map(() => '?').join(',')})`).all(...values) : []);
}

function postgresSelect(url: string): Select {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (table, column, values) => (values.length ? (await pool.query(`select * from ${table} where ${column} = any($1)`, [values])).rows : []);
}

const select = target.startsWith('postgres') ? postgresSelect(target) : sqliteSelect(target);
const ids = (json: string | null, key?: string): string[] => (json ? (JSON.parse(json) as any[]).map((x) => (key ? x[key] : x)) : []);

const app = Fastify();
app.get('/2/posts', async (request, reply) => {
  const wanted = String((request.query as { ids?: string }).ids ?? '').split(',').filter(Boolean);
  const posts = await select('posts', 'id', wanted);
  const referenced = await select('posts', 'id', [...new Set(posts.flatMap((p) => ids(p.referenced_posts, 'id')))]);
  const [users, media] = await Promise.all([
    select('users', 'id', [...new Set([...posts, ...referenced].map((p) => p.author_id))]),
    select('media', 'media_key', [...new Set(posts.flatMap((p) => ids(p.media_keys)))]),
  ]);
  reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify({ data: posts, includes: { users, posts: referenced, media } });
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(address);
