import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { compileMatcher, compileSql, parseQuery, QueryError } from '../../src/query/index.js';
import { matchablePosts, resolveUsers } from '../../src/platform/search/store.js';
import type { MatchablePost } from '../../src/query/match.js';
import type { PostRow } from '../../src/platform/posts/wire.js';
import { startTestPlaza, type TestPlaza } from '../support/server.js';
import { BIO_WORDS, CASHTAGS, EMOJI, HASHTAGS, PLACES, prng, URLS, WORDS, writeCorpus } from './corpus.js';

let plaza: TestPlaza;
let corpus: PostRow[];
let matchable: MatchablePost[];

before(async () => {
  plaza = await startTestPlaza();
  corpus = await writeCorpus(plaza, 300);
  matchable = await matchablePosts(plaza.ctx.store.db, corpus);
});

/** The ids both back-ends select from the corpus for one query. */
async function bothBackEnds(query: string): Promise<{ sql: string[]; memory: string[] }> {
  const ast = parseQuery(query);
  const ids = corpus.map((p) => p.id);
  const rows = await plaza.ctx.store.db.selectFrom('posts').select('posts.id').where('posts.id', 'in', ids).where(compileSql(ast, plaza.ctx.store.dialect)).execute();
  const matcher = compileMatcher(ast);
  return { sql: rows.map((r) => r.id).sort(), memory: matchable.filter(matcher).map((p) => p.id).sort() };
}

async function agree(query: string): Promise<number> {
  const { sql, memory } = await bothBackEnds(query);
  assert.deepEqual(sql, memory, `back-ends disagree on ${JSON.stringify(query)} (${plaza.ctx.store.dialect})`);
  // With users resolved to ids, as the search service compiles, the indexes answer the same.
  const resolved = await resolveUsers(plaza.ctx.store.db, parseQuery(query));
  const rows = await plaza.ctx.store.db.selectFrom('posts').select('posts.id').where('posts.id', 'in', corpus.map((p) => p.id)).where(compileSql(resolved, plaza.ctx.store.dialect)).execute();
  assert.deepEqual(rows.map((r) => r.id).sort(), memory, `resolved users: back-ends disagree on ${JSON.stringify(query)} (${plaza.ctx.store.dialect})`);
  return sql.length;
}

const username = (r: ReturnType<typeof prng>) => r.pick(['ada', 'chen', 'dana', 'plazanews', 'ADA']);

/** A random atom of the language, with the operators of §6 and §9. */
function atom(r: ReturnType<typeof prng>): string {
  const word = () => r.pick(WORDS).replace("'", '');
  switch (r.int(22)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return word();
    case 4:
      return `"${word()} ${word()}"`;
    case 5:
      return `"${word()} ${word()}"~${r.int(6)}`;
    case 6:
      return r.pick(EMOJI);
    case 7:
      return r.pick(HASHTAGS).toLowerCase();
    case 8:
      return r.pick(CASHTAGS);
    case 9:
      return `@${username(r)}`;
    case 10:
      return `from:${username(r)}`;
    case 11:
      return `to:${username(r)}`;
    case 12:
      return `url:${r.pick(['example.com', 'plaza.dev/news', 'HTTPS://'])}`;
    case 13:
      return `bio:${r.pick(BIO_WORDS)}`;
    case 14:
      return r.pick([`place:${r.pick(PLACES)}`, `place_country:${r.pick(['fr', 'US'])}`, 'point_radius:[2.35 48.85 20km]', 'bounding_box:[2.0 48.5 2.6 49.1]']);
    case 15:
      return r.pick(['context:10.100', 'context:11.*', 'entity:"Michael Jordan"', `retweets_of:${username(r)}`, `reposts_of:${username(r)}`]);
    case 16:
      return r.pick(['is:retweet', 'is:reply', 'is:quote', 'is:verified', '-is:nullcast']);
    case 17:
      return r.pick(['has:hashtags', 'has:cashtags', 'has:links', 'has:mentions', 'has:media', 'has:images', 'has:video_link', 'has:geo']);
    case 18:
      return r.pick(['lang:en', 'lang:fr', `sample:${1 + r.int(99)}`]);
    case 19:
      return r.pick([`min_likes:${r.int(20)}`, `min_replies:${r.int(5)}`, `min_reposts:${r.int(5)}`]);
    case 20:
      return `bio_location:${r.pick(['zurich', 'paris', '"sao paulo"'])}`;
    default:
      return `bio_name:${r.pick(['ada', 'news', 'example'])}`;
  }
}

/** A random query: AND groups of atoms (some negated), OR-ed, with parentheses. */
function generate(r: ReturnType<typeof prng>, depth = 0): string {
  const group = () => {
    const n = 1 + r.int(2);
    const items = Array.from({ length: n }, () => (depth < 2 && r.chance(0.2) ? `(${generate(r, depth + 1)})` : atom(r)));
    if (r.chance(0.3)) items.push(`-${atom(r).replace(/^-/, '')}`);
    return items.join(' ');
  };
  return Array.from({ length: 1 + r.int(1) }, group).join(' OR ');
}

test('the SQL back-end and the in-memory matcher agree on every operator, over the generated corpus', async () => {
  const checks = [
    'cat', 'CAFE', 'café', 'naive', 'resume', 'zurich', 'dont', '"don t"', 'e-mail', '"apple ipad"', '"cat dog"~2', '"dog cat"~0', '"apple cat moon"~4',
    '😀', '🚀 cat', '#cats', '#plaza', '$aapl', '@ada', 'from:ada', 'from:ADA', 'to:ada', 'url:example.com', 'url:"plaza.dev/news"',
    'retweets_of:ada', 'reposts_of:chen', 'bio:scientist', 'bio:"data scientist"', 'bio_name:example', 'bio_location:zurich', 'bio_location:"sao paulo"',
    `place:${PLACES[0]}`, 'place_country:fr', 'point_radius:[2.35 48.85 20km]', 'point_radius:[2.35 48.85 5mi]', 'bounding_box:[2.0 48.5 2.6 49.1]',
    'context:10.100', 'context:11.*', 'entity:"Michael Jordan"', 'entity:plaza',
    'cat is:retweet', 'cat is:repost', 'cat is:reply', 'cat is:quote', 'cat is:verified', 'cat -is:nullcast', 'cat has:hashtags', 'cat has:cashtags',
    'cat has:links', 'cat has:mentions', 'cat has:media', 'cat has:images', 'cat has:video_link', 'cat has:geo', 'cat lang:fr', 'cat sample:50',
    'cat min_likes:10', 'cat min_replies:3', 'cat min_reposts:4', 'cat -dog', 'apple OR iphone ipad', '(apple OR iphone) ipad', 'cat -from:ada -is:reply',
  ];
  const sizes: Record<string, number> = {};
  for (const q of checks) sizes[q] = await agree(q);
  // The corpus exercises each operator: most of them select something.
  const empty = Object.entries(sizes).filter(([, n]) => n === 0).map(([q]) => q);
  assert.ok(empty.length <= 6, `too many operators select nothing: ${empty.join(', ')}`);
  assert.equal(sizes['café'], (await bothBackEnds('cafe')).sql.length, 'accents match with or without them');
  assert.equal(sizes.naive, (await bothBackEnds('naïve')).sql.length);
  assert.equal(sizes.CAFE, sizes['café'], 'case-insensitive');
});

test('property: the two back-ends agree on 300 generated queries', async () => {
  const r = prng(7);
  let checked = 0;
  let nonEmpty = 0;
  for (let i = 0; i < 400 && checked < 300; i++) {
    const query = generate(r);
    try {
      parseQuery(query);
    } catch (err) {
      if (err instanceof QueryError) continue; // a generated query the grammar refuses (e.g. only conjunction operators)
      throw err;
    }
    if ((await agree(query)) > 0) nonEmpty++;
    checked++;
  }
  assert.ok(checked >= 200, `only ${checked} generated queries were valid`);
  assert.ok(nonEmpty >= checked / 4, `only ${nonEmpty} of ${checked} generated queries matched anything`);
});
