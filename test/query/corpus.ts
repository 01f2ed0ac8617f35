import { newPostRow } from '../../src/platform/posts/build.js';
import type { PostRow } from '../../src/platform/posts/wire.js';
import type { TestPlaza } from '../support/server.js';
import { mulberry32 } from '../../scripts/prng.js';

/** A small seeded PRNG (mulberry32), so a failing generated case can be replayed. */
export function prng(seed: number) {
  const next = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const chance = (p: number) => next() < p;
  const int = (max: number) => Math.floor(next() * (max + 1));
  return { next, pick, chance, int };
}

export const WORDS = ['cat', 'dog', 'Café', 'cafe', 'naïve', 'naive', 'résumé', 'Zürich', 'apple', 'iPad', 'iphone', 'plaza', 'social', 'media', 'news', 'rain', 'sun', "don't", 'e-mail', 'moon'];
export const EMOJI = ['😀', '🚀'];
export const HASHTAGS = ['#Cats', '#plaza', '#news'];
export const CASHTAGS = ['$AAPL', '$TSLA'];
export const URLS = ['https://example.com/a', 'https://plaza.dev/news'];
export const PLACES = ['01a9a39529b27f36', '5a110d312052166f'];
export const BIO_WORDS = ['data', 'scientist', 'café', 'owner', 'Zürich', 'writer', 'news'];

/**
 * Writes a generated corpus to the store: the demo users with generated profiles, and `count`
 * posts `minutesAgo` from 1 to ~count minutes before now with keywords, accents, emoji,
 * entities, replies, quotes, reposts, languages, places, points, context annotations, media and
 * engagement counts. Rows are inserted directly (the search index triggers and generated columns
 * see them as they see any post).
 */
export async function writeCorpus(plaza: TestPlaza, count: number, seed = 42): Promise<PostRow[]> {
  const r = prng(seed);
  const ctx = plaza.ctx;
  const db = ctx.store.db;
  const users = await db.selectFrom('users').select(['id', 'username']).where('protected', '=', 0).execute();
  for (const u of users) {
    const bio = Array.from({ length: 3 }, () => r.pick(BIO_WORDS)).join(' ');
    await db.updateTable('users').set({ description: bio, location: r.pick(['Zürich', 'Paris', 'São Paulo', null]), verified: r.chance(0.5) ? 1 : 0 }).where('id', '=', u.id).execute();
  }
  const media = await db.selectFrom('media').select(['media_key', 'type']).execute();
  const now = ctx.clock.now().getTime();
  const rows: PostRow[] = [];
  const reposted = new Set<string>();
  for (let i = 0; i < count; i++) {
    const author = r.pick(users);
    const parts = Array.from({ length: 2 + r.int(5) }, () => r.pick(WORDS));
    if (r.chance(0.2)) parts.splice(r.int(parts.length), 0, r.pick(EMOJI));
    if (r.chance(0.3)) parts.push(r.pick(HASHTAGS));
    if (r.chance(0.2)) parts.push(`@${r.pick(users).username}`);
    if (r.chance(0.15)) parts.push(r.pick(CASHTAGS));
    if (r.chance(0.2)) parts.push(r.pick(URLS));
    const earlier = rows.length > 0 && r.chance(0.3) ? r.pick(rows) : undefined;
    let kind = earlier ? r.pick(['reply', 'quote', 'repost'] as const) : undefined;
    // One live repost per author and source (posts_one_live_repost); a repost stands for its source.
    if (kind === 'repost' && (earlier!.reposted_post_id || reposted.has(`${author.id} ${earlier!.id}`))) kind = 'reply';
    if (kind === 'repost') reposted.add(`${author.id} ${earlier!.id}`);
    const text = kind === 'repost' ? `RT @${users.find((u) => u.id === earlier!.author_id)?.username ?? 'someone'}: ${earlier!.text}` : parts.join(' ');
    const row = newPostRow(ctx.ids.next(), {
      authorId: author.id,
      text,
      createdAt: new Date(now - (count - i) * 60_000 - 1000),
      replyTo: kind === 'reply' ? earlier : undefined,
      quoteOf: kind === 'quote' ? earlier : undefined,
      repostOf: kind === 'repost' ? earlier : undefined,
      lang: r.pick(['en', 'fr', 'de']),
      mediaKeys: media.length && r.chance(0.15) ? [r.pick(media).media_key] : [],
    });
    if (r.chance(0.3)) {
      row.geo = JSON.stringify({
        place_id: r.pick(PLACES),
        country_code: r.pick(['FR', 'US']),
        ...(r.chance(0.7) ? { coordinates: { type: 'Point', coordinates: [2.35 + (r.next() - 0.5), 48.85 + (r.next() - 0.5)] } } : {}),
      });
    }
    if (r.chance(0.3)) row.context_annotations = JSON.stringify([{ domain: { id: r.pick(['10', '11']), name: 'Person' }, entity: { id: r.pick(['100', '101']), name: r.pick(['Michael Jordan', 'Plaza']) } }]);
    row.like_count = r.int(20);
    row.reply_count = r.int(5);
    row.retweet_count = r.int(5);
    await db.insertInto('posts').values(row).execute();
    rows.push(row);
  }
  return rows;
}
