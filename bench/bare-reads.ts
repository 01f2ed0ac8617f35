/**
 * The baseline of bench/reads-large.ts: the plainest server that does the work of each scenario,
 * run in its own process on the same store as Plaza. It reads the rows with plain SQL (`select *`)
 * and answers them with JSON.stringify: no field selection, no rules, no caches.
 *
 * - GET /2/posts?ids=: the posts, the posts they reference, the authors of both and their media.
 * - GET /2/users/:id/timelines/reverse_chronological?until_id=: the newest 100 live posts of the
 *   accounts the user follows and the user's own (before until_id), and their authors.
 * - GET /2/posts/search/recent?query=<one word>&until_id=: the newest 100 live posts with the word
 *   (SQLite: the FTS5 index; PostgreSQL: the tsvector column), and their authors.
 *
 *   node --import tsx bench/bare-reads.ts <sqlite file | postgres:// url>   (prints its address)
 */
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const target = process.argv[2];
if (!target) throw new Error('usage: bare-reads.ts <sqlite file | postgres url>');

/** A query with `?` placeholders (numbered for PostgreSQL here), on either store. */
type Query = (text: string, values: readonly unknown[]) => Promise<any[]>;

function sqliteQuery(file: string): Query {
  const db = new Database(file, { readonly: true });
  db.pragma('busy_timeout = 5000');
  return async (text, values) => db.prepare(text).all(...values);
}

function postgresQuery(url: string): Query {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return async (text, values) => {
    let n = 0;
    return (await pool.query(text.replace(/\?/g, () => `$${++n}`), values as unknown[])).rows;
  };
}

const postgres = target.startsWith('postgres');
const query = postgres ? postgresQuery(target) : sqliteQuery(target);
const select = async (table: string, column: string, values: readonly string[]) =>
  values.length ? query(`select * from ${table} where ${column} in (${values.map(() => '?').join(',')})`, values) : [];
const ids = (json: string | null, key?: string): string[] => (json ? (JSON.parse(json) as any[]).map((x) => (key ? x[key] : x)) : []);
const NEWEST = `deleted_at is null and superseded_by_id is null`;
const before = (untilId: string | undefined) => (untilId ? ` and id < ?` : '');
const send = (reply: any, body: unknown) => {
  reply.header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify(body);
};

const app = Fastify();
app.get('/2/posts', async (request, reply) => {
  const wanted = String((request.query as { ids?: string }).ids ?? '').split(',').filter(Boolean);
  const posts = await select('posts', 'id', wanted);
  const referenced = await select('posts', 'id', [...new Set(posts.flatMap((p) => ids(p.referenced_posts, 'id')))]);
  const [users, media] = await Promise.all([
    select('users', 'id', [...new Set([...posts, ...referenced].map((p) => p.author_id))]),
    select('media', 'media_key', [...new Set(posts.flatMap((p) => ids(p.media_keys)))]),
  ]);
  return send(reply, { data: posts, includes: { users, posts: referenced, media } });
});

app.get('/2/users/:id/timelines/reverse_chronological', async (request, reply) => {
  const { id } = request.params as { id: string };
  const { until_id } = request.query as { until_id?: string };
  const posts = await query(
    `select * from posts where (author_id in (select target_user_id from follows where source_user_id = ?) or author_id = ?) and ${NEWEST}${before(until_id)} order by created_at desc, id desc limit 100`,
    [id, id, ...(until_id ? [until_id] : [])],
  );
  const users = await select('users', 'id', [...new Set(posts.map((p) => p.author_id))]);
  return send(reply, { data: posts, includes: { users } });
});

app.get('/2/posts/search/recent', async (request, reply) => {
  const { query: word, until_id } = request.query as { query: string; until_id?: string };
  const matching = postgres ? `search_tsv @@ to_tsquery('simple', ?)` : `rowid in (select rowid from posts_fts where posts_fts match ?)`;
  const posts = await query(`select * from posts where ${matching} and ${NEWEST}${before(until_id)} order by id desc limit 100`, [word, ...(until_id ? [until_id] : [])]);
  const users = await select('users', 'id', [...new Set(posts.map((p) => p.author_id))]);
  return send(reply, { data: posts, includes: { users } });
});

const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(address);
