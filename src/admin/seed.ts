import type { PlatformContext } from '../platform/context.js';
import { invalidValue } from '../http/params.js';
import { seedPosts } from '../seed/posts.js';

/**
 * POST /admin/seed (`plaza seed`): generated authors and posts written into the running Plaza's
 * store by the benchmarks' generator (src/seed/posts.ts), so a newcomer can fill a store with
 * thousands of realistic posts to search, count and page through.
 *
 * A run of many posts is sent in chunks, one request each (`first`, `of`): every chunk is short
 * enough not to hold the store's write lock for long, the CLI shows progress between them, and any
 * process behind a load balancer can take any chunk, since nothing is kept between requests.
 *
 * Seeded posts are history, like an import: they go into the store and its search index but not
 * into the event log, so no stream, webhook or Activity subscription hears of them (a run of a
 * hundred thousand posts would otherwise flood every receiver).
 */

export interface SeedRequest {
  posts: number;
  users?: number;
  days?: number;
  until?: string;
  first?: number;
  of?: number;
  seed?: number;
  /** The authors get e-mail addresses and phone numbers (for custom audiences to match). */
  contacts?: boolean;
}

export interface SeedAnswer {
  /** Posts written by this request: fewer than `posts` only when ids were taken already. */
  written: number;
  first: number;
  of: number;
  until: string;
  days: number;
  authors: string[];
}

const ISO_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:\d\d)$/;

export async function seedStore(ctx: PlatformContext, body: SeedRequest): Promise<SeedAnswer> {
  const now = ctx.clock.now();
  let until = now;
  if (body.until !== undefined) {
    until = new Date(body.until);
    if (!ISO_INSTANT.test(body.until) || Number.isNaN(until.getTime())) throw invalidValue('until', body.until, `The \`until\` value [${body.until}] is not an ISO 8601 date-time such as 2026-01-02T03:04:05Z`);
    if (until.getTime() > now.getTime()) throw invalidValue('until', body.until, `The \`until\` value [${body.until}] is later than Plaza's clock (${now.toISOString()}): seeded posts are history`);
  }
  const first = body.first ?? 0;
  const of = body.of ?? first + body.posts;
  if (first + body.posts > of) throw invalidValue('first', first, `The \`first\` value [${first}] plus \`posts\` (${body.posts}) runs past the run's \`of\` (${of})`);
  const days = body.days ?? 7;
  const seed = body.seed ?? 1;
  const seeded = await seedPosts(ctx.store.db, {
    dialect: ctx.store.dialect,
    count: body.posts,
    users: body.users ?? 50,
    days,
    now: until,
    // Each chunk draws its own words; the salt keeps two runs under a frozen clock apart.
    seed: seed + first,
    idSalt: seed * 7919,
    first,
    of,
    skipTaken: true,
    contacts: body.contacts ?? false,
    // Dropping the indexes of a store other requests are reading would stall them.
    bulkIndexes: false,
  });
  await recountAuthors(ctx, seeded.userIds);
  return { written: seeded.written, first, of, until: until.toISOString(), days, authors: seeded.usernames };
}

/** The authors' post counts and latest posts, as recordPost keeps them for posts made one by one. */
async function recountAuthors(ctx: PlatformContext, userIds: readonly string[]): Promise<void> {
  const db = ctx.store.db;
  for (let i = 0; i < userIds.length; i += 500) {
    await db
      .updateTable('users')
      .set((eb) => ({
        post_count: eb
          .selectFrom('posts')
          .select((p) => p.fn.countAll<number>().as('n'))
          .whereRef('posts.author_id', '=', 'users.id')
          .where('posts.deleted_at', 'is', null)
          .where('posts.superseded_by_id', 'is', null),
        most_recent_post_id: eb
          .selectFrom('posts')
          .select('posts.id')
          .whereRef('posts.author_id', '=', 'users.id')
          .where('posts.deleted_at', 'is', null)
          .orderBy('posts.created_at', 'desc')
          .orderBy('posts.id', 'desc')
          .limit(1),
      }))
      .where('id', 'in', userIds.slice(i, i + 500))
      .execute();
  }
}
