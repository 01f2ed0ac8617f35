/**
 * The benchmark's scenarios (bench/README.md): each seeds what it reads into the running Plaza,
 * names one request and checks its first answer. bench/run.ts measures each against Plaza and
 * against a bare Fastify route returning the same body.
 */
import { sql } from 'kysely';
import { mulberry32 } from '../scripts/prng.js';
import type { Plaza } from '../src/app.js';
import { newPostRow, recordPost } from '../src/platform/posts/build.js';
import { postDeclaration, type PostRow } from '../src/platform/posts/wire.js';
import type { CredentialsFile } from '../src/seed/credentials.js';
import { lastEventSeq } from '../src/events/log.js';
import { readCursor } from '../src/events/outbox.js';
import { WEBHOOK_CURSOR } from '../src/events/fanout.js';

/** The share of the bare route's requests per second Plaza must reach for the heavy reads (issue 8). */
const HEAVY_TARGET = { sqlite: 0.5, postgres: 0.3 };

/** What every scenario gets: the running Plaza and the demo workspace's credentials. */
export interface Bench {
  plaza: Plaza;
  credentials: CredentialsFile;
}

/** The requests to measure: varied paths, as a population of clients sends them, with their check. */
export interface BenchRequests {
  /** Paths and query strings on the platform listener; each request of the load picks the next one. */
  paths: string[];
  headers: Record<string, string>;
  /** The Authorization header of each path, where paths are asked by different callers. */
  authorizationByPath?: Record<string, string>;
  /** Returns what is wrong with the answer to `path`, or nothing when it is the expected one. */
  check(path: string, status: number, body: unknown): string[];
}

export interface Scenario<State = unknown> {
  name: string;
  /** One line for the printed table and the README. */
  description: string;
  /**
   * Share of the bare route's requests per second Plaza must reach, per store; none for a
   * reference, measured so the targets' rows can be read against it.
   */
  targetRatio?: { sqlite: number; postgres: number };
  /** Seeds the store; runs once, before any measurement. */
  setup(bench: Bench): Promise<State>;
  requests(bench: Bench, state: State): Promise<BenchRequests>;
}

/** Keeps each scenario's State type checked while the list holds them all. */
export const scenario = <State>(s: Scenario<State>): Scenario<unknown> => s as Scenario<unknown>;

const appAuth = (bench: Bench) => ({ authorization: `Bearer ${bench.credentials.apps[0].bearer_token}` });

const POST_COUNT = 100;
// Every post field a reader who is not the author may ask for: the private metrics (the keys
// postDeclaration reads per author view) answer a field-authorization error to anyone else.
const POST_FIELDS = Object.keys(postDeclaration.fields)
  .filter((f) => !['non_public_metrics', 'organic_metrics', 'promoted_metrics'].includes(f))
  .join(',');
const EXPANSIONS = 'author_id,attachments.media_keys,referenced_posts.id';

const userAuth = (bench: Bench, index: number) => ({ authorization: `Bearer ${bench.credentials.users[index].oauth2_access_token}` });

/**
 * Waits until the webhook fan-out has read every event the setup wrote: fanning out hundreds of
 * seeded posts is the setup's cost, and would otherwise run in the measured seconds. On
 * PostgreSQL, then vacuums and analyzes, as autovacuum does within a minute or so of the setup's
 * burst of writes (each seeded post rewrote its author's row, leaving thousands of dead versions
 * that a read of that row would otherwise step over, and statistics of an almost empty table).
 */
export async function settled({ plaza }: Bench, timeoutMs = 60_000): Promise<void> {
  const { db, dialect } = plaza.ctx.store;
  const deadline = Date.now() + timeoutMs;
  const end = await lastEventSeq(db);
  while (((await readCursor(db, WEBHOOK_CURSOR, dialect, false)) ?? end) < end) {
    if (Date.now() > deadline) throw new Error('the event fan-out did not catch up with the setup');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (dialect === 'postgres') await sql`vacuum analyze`.execute(db);
}

/** Posts seeded so far in this run: each later post is a millisecond newer, so scenarios never interleave. */
let seeded = 0;

/**
 * Adds `count` posts through the code the endpoints use, in one transaction, newest last, spread
 * over `authors`: each with a mention, two hashtags and a URL; every fourth carries seeded media,
 * some reply to or quote earlier ones. All are newer than the demo's posts and than any seeded
 * before. Returns their ids, oldest first.
 */
async function seedPosts({ plaza, credentials }: Bench, authors: Array<{ id: string; username: string }>, count = POST_COUNT): Promise<string[]> {
  const { ctx } = plaza;
  if (authors.length === 0) throw new Error('no author to write the bench posts');
  const mediaKeys = credentials.sample.media_keys;
  const first = ctx.clock.now().getTime() - 10_000 + seeded;
  seeded += count;
  const rows: PostRow[] = [];
  await ctx.store.db.transaction().execute(async (tx) => {
    for (let i = 0; i < count; i++) {
      const author = authors[i % authors.length];
      const other = authors[(i + 1) % authors.length];
      const text =
        `Bench post ${i} by @${author.username}: hello @${other.username}, ` +
        `notes on #plaza and #bench${i % 7}, details at https://example.com/bench/${i}`;
      const replyTo = i >= 3 && i % 5 === 0 ? rows[i - 3] : undefined;
      const quoteOf = i >= 5 && i % 7 === 0 ? rows[i - 5] : undefined;
      const media = mediaKeys.length > 0 && i % 4 === 0 ? [mediaKeys[i % mediaKeys.length], ...(i % 8 === 0 && mediaKeys.length > 1 ? [mediaKeys[(i + 1) % mediaKeys.length]] : [])] : undefined;
      const row = newPostRow(ctx.ids.next(), {
        authorId: author.id,
        text,
        createdAt: new Date(first + i),
        replyTo,
        quoteOf,
        mediaKeys: media ? [...new Set(media)] : undefined,
      });
      await recordPost(ctx, tx, row);
      rows.push(row);
    }
  });
  return rows.map((r) => r.id);
}

/** The demo users an app-only caller may read (not protected), by id. */
async function publicDemoUsers({ plaza, credentials }: Bench): Promise<Array<{ id: string; username: string }>> {
  return plaza.ctx.store.db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', credentials.users.map((u) => u.id))
    .where('protected', '=', 0)
    .orderBy('id')
    .execute();
}

type PageBody = { data?: Array<{ id: string }>; includes?: Record<string, unknown[]>; errors?: unknown[]; meta?: { result_count?: number; next_token?: string } };

/** What is wrong with a 200 answer that should hold `expected` posts, in that order, with every expansion filled. */
function checkPosts(status: number, body: unknown, expected: readonly string[], includes = ['users', 'media', 'posts']): string[] {
  if (status !== 200) return [`status ${status}, expected 200: ${JSON.stringify(body).slice(0, 500)}`];
  const b = body as PageBody;
  const problems: string[] = [];
  const got = b.data?.map((p) => p.id) ?? [];
  if (got.length !== expected.length) problems.push(`${got.length} posts in data, expected ${expected.length}`);
  else if (got.some((id, i) => id !== expected[i])) problems.push('data is not the expected posts in the expected order');
  if (b.errors?.length) problems.push(`errors: ${JSON.stringify(b.errors).slice(0, 500)}`);
  for (const kind of includes) if (!b.includes?.[kind]?.length) problems.push(`no includes.${kind}`);
  return problems;
}

const selection = (extra: Record<string, string> = {}) => new URLSearchParams({ ...extra, 'post.fields': POST_FIELDS, expansions: EXPANSIONS });


/** `count` distinct items of `items`, in random order. */
function sample<T>(items: readonly T[], count: number, next: () => number): T[] {
  const pool = [...items];
  for (let i = pool.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

const LOOKUP_POOL = 300;
const LOOKUP_PATHS = 1000;

/** GET /2/posts with 100 ids, each request a different random 100 of 300 seeded posts. */
export const postsLookup = scenario<{ ids: string[] }>({
  name: 'posts-lookup-100',
  description: `GET /2/posts, a different random ${POST_COUNT} of ${LOOKUP_POOL} seeded posts per request, every post.fields, expansions ${EXPANSIONS} (app bearer)`,
  targetRatio: HEAVY_TARGET,
  async setup(bench) {
    return { ids: await seedPosts(bench, await publicDemoUsers(bench), LOOKUP_POOL) };
  },
  async requests(bench, { ids }) {
    const next = mulberry32(8);
    const paths = Array.from({ length: LOOKUP_PATHS }, () => `/2/posts?${selection({ ids: sample(ids, POST_COUNT, next).join(',') })}`);
    return {
      paths,
      headers: appAuth(bench),
      check: (path, status, body) => checkPosts(status, body, new URLSearchParams(path.slice(path.indexOf('?'))).get('ids')!.split(','), ['users', 'media']),
    };
  },
});

/** GET /2/posts/{id} with the default fields, each request another of 300 seeded posts. */
export const postById = scenario<{ ids: string[] }>({
  name: 'post-by-id',
  description: `GET /2/posts/{id}, default fields, a different one of ${LOOKUP_POOL} seeded posts per request (app bearer)`,
  targetRatio: { sqlite: 0.6, postgres: 0.3 },
  async setup(bench) {
    return { ids: await seedPosts(bench, await publicDemoUsers(bench), LOOKUP_POOL) };
  },
  async requests(bench, { ids }) {
    return {
      paths: ids.map((id) => `/2/posts/${id}`),
      headers: appAuth(bench),
      check(path, status, body) {
        const id = path.slice('/2/posts/'.length);
        const data = (body as { data?: Record<string, unknown> }).data;
        if (status !== 200 || !data) return [`status ${status}: ${JSON.stringify(body).slice(0, 300)}`];
        const problems: string[] = [];
        if (data.id !== id) problems.push(`data.id ${String(data.id)}, expected ${id}`);
        if (Object.keys(data).sort().join(',') !== [...postDeclaration.defaults].sort().join(',')) problems.push(`fields ${Object.keys(data).join(',')}, expected the defaults`);
        return problems;
      },
    };
  },
});

/**
 * A reference, not a target: GET /healthz goes through every hook of the platform listener that
 * every request pays (the request id, the logger, the metrics, the interface's routing, dialect
 * and NUL guards) and does nothing else: no authentication, no store, no selection. Its ratio is
 * the most any route of Plaza can reach against the bare route on this machine.
 */
export const healthzFloor = scenario<Record<string, never>>({
  name: 'healthz-floor',
  description: 'GET /healthz, no authentication and no store read: the work every request pays, alone (a reference, no target)',
  async setup() {
    return {};
  },
  async requests() {
    return {
      paths: ['/healthz'],
      headers: {},
      check(_path, status, body) {
        return status === 200 && (body as { status?: string }).status === 'ok' ? [] : [`status ${status}: ${JSON.stringify(body).slice(0, 300)}`];
      },
    };
  },
});

/**
 * Follows a timeline's pages from `first`, `pages` deep, through the real pagination tokens: the
 * paths of a population of clients paging through several timelines.
 */
async function timelinePages(bench: Bench, first: string, headers: Record<string, string>, pages: number): Promise<Array<{ path: string; ids: string[] }>> {
  const out: Array<{ path: string; ids: string[] }> = [];
  let path = first;
  for (let i = 0; i < pages; i++) {
    const response = await fetch(`${bench.plaza.urls.base_url}${path}`, { headers });
    const body = (await response.json()) as PageBody;
    if (response.status !== 200 || !body.data) throw new Error(`${path}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
    out.push({ path, ids: body.data.map((p) => p.id) });
    if (!body.meta?.next_token) break;
    const url = new URL(path, 'http://x');
    url.searchParams.set('pagination_token', body.meta.next_token);
    path = `${url.pathname}${url.search}`;
  }
  return out;
}

const TIMELINE_PAGES = 3;

/** Home timelines of every demo user who follows someone, three pages of 100 each, with expansions. */
export const homeTimeline = scenario<{ users: Array<{ index: number; id: string }> }>({
  name: 'home-timeline-100',
  description: `GET /2/users/:id/timelines/reverse_chronological, max_results=100, pages 1-${TIMELINE_PAGES} of several users (each with their own OAuth 2.0 token), every post.fields, expansions ${EXPANSIONS}`,
  targetRatio: HEAVY_TARGET,
  async setup(bench) {
    const users: Array<{ index: number; id: string }> = [];
    for (const [index, me] of bench.credentials.users.entries()) {
      const followed = await bench.plaza.ctx.store.db
        .selectFrom('follows')
        .innerJoin('users', 'users.id', 'follows.target_user_id')
        .select(['users.id', 'users.username'])
        .where('follows.source_user_id', '=', me.id)
        .where('users.protected', '=', 0)
        .orderBy('users.id')
        .execute();
      if (followed.length === 0) continue;
      await seedPosts(bench, [{ id: me.id, username: me.username }, ...followed], POST_COUNT * TIMELINE_PAGES);
      users.push({ index, id: me.id });
    }
    if (users.length < 2) throw new Error('the demo workspace needs two users who follow someone');
    return { users };
  },
  async requests(bench, { users }) {
    // One token per request: the paths of each user are asked with that user's token, so the
    // population is user × page, each under its own credentials (see bench/pick-path.cjs).
    const pages = await Promise.all(users.map((u) => timelinePages(bench, `/2/users/${u.id}/timelines/reverse_chronological?${selection({ max_results: '100' })}`, userAuth(bench, u.index), TIMELINE_PAGES)));
    const expected = new Map(pages.flat().map((p) => [p.path, p.ids]));
    return {
      paths: pages.flat().map((p) => p.path),
      headers: {},
      authorizationByPath: Object.fromEntries(users.flatMap((u, i) => pages[i].map((p) => [p.path, userAuth(bench, u.index).authorization]))),
      check: (path, status, body) => checkPosts(status, body, expected.get(path)!, ['users']),
    };
  },
});

/** Posts timelines of several public users, three pages of 100 each, with expansions. */
export const userTimeline = scenario<{ users: Array<{ id: string }> }>({
  name: 'user-timeline-100',
  description: `GET /2/users/:id/posts, max_results=100, pages 1-${TIMELINE_PAGES} of several users, every post.fields, expansions ${EXPANSIONS} (app bearer)`,
  targetRatio: HEAVY_TARGET,
  async setup(bench) {
    const authors = await publicDemoUsers(bench);
    if (authors.length < 2) throw new Error('the demo workspace needs two public users');
    for (const author of authors) await seedPosts(bench, [author], POST_COUNT * TIMELINE_PAGES);
    return { users: authors };
  },
  async requests(bench, { users }) {
    const pages = (await Promise.all(users.map((u) => timelinePages(bench, `/2/users/${u.id}/posts?${selection({ max_results: '100' })}`, appAuth(bench), TIMELINE_PAGES)))).flat();
    const expected = new Map(pages.map((p) => [p.path, p.ids]));
    return {
      paths: pages.map((p) => p.path),
      headers: appAuth(bench),
      check: (path, status, body) => checkPosts(status, body, expected.get(path)!, ['users']),
    };
  },
});

/** The scenarios of a run, in order. */
export const scenarios: Scenario[] = [postsLookup, postById, homeTimeline, userTimeline, healthzFloor];
