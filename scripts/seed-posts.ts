/**
 * Seeds a store with generated posts for the benchmarks: `npx tsx scripts/seed-posts.ts --db
 * ./data/bench.sqlite --count 1000000` (or --db postgres://...). The generator lives in
 * src/seed/posts.ts (shared with `plaza seed`); progress is drawn by src/admin/progress.ts.
 */
import { sql } from 'kysely';
import { pathToFileURL } from 'node:url';
import { seedingProgress } from '../src/admin/progress.js';
import { seedPosts } from '../src/seed/posts.js';
import { openStore } from '../src/store/store.js';

export { seedPosts, vocabulary, type SeedOptions, type SeedResult } from '../src/seed/posts.js';

function flag(name: string, fallback?: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

async function main(): Promise<void> {
  const url = flag('db') ?? process.env.DATABASE_URL;
  if (!url) {
    process.stderr.write('usage: npx tsx scripts/seed-posts.ts --db <sqlite path | postgres:// URL> [--count 1000000] [--users 1000] [--days 10]\n');
    process.exit(2);
  }
  const store = await openStore(url);
  try {
    const count = Number(flag('count', '1000000'));
    const result = await seedPosts(store.db, { dialect: store.dialect, count, users: Number(flag('users', '1000')), days: Number(flag('days', '10')), now: new Date(), progress: seedingProgress('seeding posts', { stream: process.stderr }) });
    if (store.dialect === 'postgres') await sql`analyze posts`.execute(store.db);
    else await sql`analyze`.execute(store.db);
    process.stderr.write(`seeded ${count} posts in ${result.seconds.toFixed(1)} s\n`);
  } finally {
    await store.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
