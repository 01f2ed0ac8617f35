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

/** GET /2/posts with 100 ids, every post field and the three common expansions. */
export const postsLookup = scenario<{ ids: string[] }>({
  name: 'posts-lookup-100',
  description: `GET /2/posts, ${POST_COUNT} ids, every post.fields, expansions author_id, attachments.media_keys, referenced_posts.id (app bearer)`,
  async setup({ plaza, credentials }) {
    const { ctx } = plaza;
    // Authors: the demo users whose posts an app-only caller may read (not protected).
    const readable = await ctx.store.db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('id', 'in', credentials.users.map((u) => u.id))
      .where('protected', '=', 0)
      .orderBy('id')
      .execute();
    if (readable.length === 0) throw new Error('the demo workspace has no public user');
    const mediaKeys = credentials.sample.media_keys;
    const now = ctx.clock.now().getTime();
    const rows: PostRow[] = [];
    await ctx.store.db.transaction().execute(async (tx) => {
      for (let i = 0; i < POST_COUNT; i++) {
        const author = readable[i % readable.length];
        const other = readable[(i + 1) % readable.length];
        const text =
          `Bench post ${i} by @${author.username}: hello @${other.username}, ` +
          `notes on #plaza and #bench${i % 7}, details at https://example.com/bench/${i}`;
        const replyTo = i >= 3 && i % 5 === 0 ? rows[i - 3] : undefined;
        const quoteOf = i >= 5 && i % 7 === 0 ? rows[i - 5] : undefined;
        const media = mediaKeys.length > 0 && i % 4 === 0 ? [mediaKeys[i % mediaKeys.length], ...(i % 8 === 0 && mediaKeys.length > 1 ? [mediaKeys[(i + 1) % mediaKeys.length]] : [])] : undefined;
        const row = newPostRow(ctx.ids.next(), {
          authorId: author.id,
          text,
          createdAt: new Date(now - (POST_COUNT - i) * 60_000),
          replyTo,
          quoteOf,
          mediaKeys: media ? [...new Set(media)] : undefined,
        });
        await recordPost(ctx, tx, row);
        rows.push(row);
      }
    });
    return { ids: rows.map((r) => r.id) };
  },
  request(bench, { ids }) {
    const query = new URLSearchParams({
      ids: ids.join(','),
      'post.fields': Object.keys(postDeclaration.fields).join(','),
      expansions: 'author_id,attachments.media_keys,referenced_posts.id',
    });
    return {
      path: `/2/posts?${query}`,
      headers: appAuth(bench),
      check(status, body) {
        const problems: string[] = [];
        if (status !== 200) return [`status ${status}, expected 200: ${JSON.stringify(body).slice(0, 500)}`];
        const b = body as { data?: Array<{ id: string }>; includes?: Record<string, unknown[]>; errors?: unknown[] };
        const got = b.data?.map((p) => p.id) ?? [];
        if (got.length !== ids.length) problems.push(`${got.length} posts in data, expected ${ids.length}`);
        else if (got.some((id, i) => id !== ids[i])) problems.push('data is not the requested posts in request order');
        if (b.errors?.length) problems.push(`errors: ${JSON.stringify(b.errors).slice(0, 500)}`);
        for (const kind of ['users', 'media', 'posts']) if (!b.includes?.[kind]?.length) problems.push(`no includes.${kind}`);
        return problems;
      },
    };
  },
});

/** The scenarios of a run, in order. Add new ones here (e.g. timelines). */
export const scenarios: Scenario[] = [postsLookup];
