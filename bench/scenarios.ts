/**
 * The benchmark's scenarios (bench/README.md): each seeds what it reads into the running Plaza,
 * names one request and checks its first answer. bench/run.ts measures each against Plaza and
 * against a bare Fastify route returning the same body.
 */
import type { Plaza } from '../src/app.js';
import { newPostRow, recordPost } from '../src/platform/posts/build.js';
import { postDeclaration, type PostRow } from '../src/platform/posts/wire.js';
import type { CredentialsFile } from '../src/seed/credentials.js';

/** Plaza must answer at least this share of the bare route's requests per second, unless a scenario says otherwise. */
export const DEFAULT_TARGET_RATIO = 0.5;

/** What every scenario gets: the running Plaza and the demo workspace's credentials. */
export interface Bench {
  plaza: Plaza;
  credentials: CredentialsFile;
}

/** One request to measure, with the check its first answer must pass. */
export interface BenchRequest {
  /** Path and query string, on the platform listener. */
  path: string;
  headers: Record<string, string>;
  /** Returns what is wrong with the answer, or nothing when it is the expected one. */
  check(status: number, body: unknown): string[];
}

export interface Scenario<State = unknown> {
  name: string;
  /** One line for the printed table and the README. */
  description: string;
  /** Share of the bare route's requests per second Plaza must reach (default 0.5). */
  targetRatio?: number;
  /** Seeds the store; runs once, before any measurement. */
  setup(bench: Bench): Promise<State>;
  request(bench: Bench, state: State): BenchRequest;
}

/** Keeps each scenario's State type checked while the list holds them all. */
export const scenario = <State>(s: Scenario<State>): Scenario<unknown> => s as Scenario<unknown>;

const appAuth = (bench: Bench) => ({ authorization: `Bearer ${bench.credentials.apps[0].bearer_token}` });

const POST_COUNT = 100;
const POST_FIELDS = Object.keys(postDeclaration.fields).join(',');
const EXPANSIONS = 'author_id,attachments.media_keys,referenced_posts.id';

const userAuth = (bench: Bench, index: number) => ({ authorization: `Bearer ${bench.credentials.users[index].oauth2_access_token}` });

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

type PageBody = { data?: Array<{ id: string }>; includes?: Record<string, unknown[]>; errors?: unknown[]; meta?: { result_count?: number } };

/** What is wrong with a 200 answer that should hold `expected` posts, in that order, with every expansion filled. */
function checkPosts(status: number, body: unknown, expected: string[], includes = ['users', 'media', 'posts']): string[] {
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

/** GET /2/posts with 100 ids, every post field and the three common expansions. */
export const postsLookup = scenario<{ ids: string[] }>({
  name: 'posts-lookup-100',
  description: `GET /2/posts, ${POST_COUNT} ids, every post.fields, expansions ${EXPANSIONS} (app bearer)`,
  async setup(bench) {
    return { ids: await seedPosts(bench, await publicDemoUsers(bench)) };
  },
  request(bench, { ids }) {
    return {
      path: `/2/posts?${selection({ ids: ids.join(',') })}`,
      headers: appAuth(bench),
      check: (status, body) => checkPosts(status, body, ids),
    };
  },
});

/** The first demo user's reverse-chronological home timeline, a page of 100 with expansions. */
export const homeTimeline = scenario<{ userId: string; newest: string[] }>({
  name: 'home-timeline-100',
  description: `GET /2/users/:id/timelines/reverse_chronological, max_results=100, every post.fields, expansions ${EXPANSIONS} (OAuth 2.0 user token)`,
  async setup(bench) {
    const me = bench.credentials.users[0];
    const followed = await bench.plaza.ctx.store.db
      .selectFrom('follows')
      .innerJoin('users', 'users.id', 'follows.target_user_id')
      .select(['users.id', 'users.username'])
      .where('follows.source_user_id', '=', me.id)
      .orderBy('users.id')
      .execute();
    const ids = await seedPosts(bench, [{ id: me.id, username: me.username }, ...followed]);
    return { userId: me.id, newest: ids.reverse() };
  },
  request(bench, { userId, newest }) {
    return {
      path: `/2/users/${userId}/timelines/reverse_chronological?${selection({ max_results: '100' })}`,
      headers: userAuth(bench, 0),
      check: (status, body) => checkPosts(status, body, newest),
    };
  },
});

/** One public user's posts timeline, a page of 100 with expansions. */
export const userTimeline = scenario<{ userId: string; newest: string[] }>({
  name: 'user-timeline-100',
  description: `GET /2/users/:id/posts, max_results=100, every post.fields, expansions ${EXPANSIONS} (app bearer)`,
  async setup(bench) {
    const [author] = await publicDemoUsers(bench);
    if (!author) throw new Error('the demo workspace has no public user');
    const ids = await seedPosts(bench, [author]);
    return { userId: author.id, newest: ids.reverse() };
  },
  request(bench, { userId, newest }) {
    return {
      path: `/2/users/${userId}/posts?${selection({ max_results: '100' })}`,
      headers: appAuth(bench),
      check: (status, body) => checkPosts(status, body, newest),
    };
  },
});

/** The scenarios of a run, in order. */
export const scenarios: Scenario[] = [postsLookup, homeTimeline, userTimeline];
