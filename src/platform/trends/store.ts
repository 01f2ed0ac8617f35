import { sql, type RawBuilder } from 'kysely';
import type { Db, StoreDialect } from '../../store/store.js';
import { SHOWN } from '../visibility/rule.js';
import { visibilitySql } from '../visibility/sql.js';

/** One hashtag's volume: the posts carrying it, the earliest of them, and how many came from followed accounts. */
export interface HashtagVolume {
  tag: string;
  posts: number;
  first_at: string;
  from_follows: number;
}

export interface HashtagWindow {
  since: string;
  until: string;
  limit: number;
  /** Only posts whose geo names this ISO country code. */
  country?: string;
  /** Personalized: only posts by the accounts this user follows, or that the user liked in the window. */
  viewerId?: string;
}

/**
 * Hashtag volume over the window, counted by the store from the posts' entities (SQLite json_each,
 * PostgreSQL jsonb_array_elements): one count per live, latest, public post (a repost carries its
 * original's tags and is not counted again), tags compared case-insensitively, most posts first.
 * Protected accounts' posts count only for their approved followers' personalized trends.
 */
export async function hashtagVolume(db: Db, dialect: StoreDialect, w: HashtagWindow): Promise<HashtagVolume[]> {
  const lite = dialect === 'sqlite';
  const tag = lite ? sql`cast(json_extract(e.value, '$.tag') as text)` : sql`(e.v ->> 'tag')`;
  const rows = lite
    ? sql`posts, json_each(posts.entities, '$.hashtags') as e`
    : sql`posts cross join lateral jsonb_array_elements(coalesce(posts.entities::jsonb -> 'hashtags', '[]'::jsonb)) as e(v)`;
  const conditions: RawBuilder<unknown>[] = [
    sql`posts.deleted_at is null`,
    sql`posts.superseded_by_id is null`,
    sql`posts.nullcast = 0`,
    sql`posts.reposted_post_id is null`,
    sql`posts.created_at <= ${w.until}`,
  ];
  let followed = sql`0`;
  if (w.viewerId) {
    const follows = sql`(select f.target_user_id from follows f where f.source_user_id = ${w.viewerId})`;
    followed = sql`case when posts.author_id in ${follows} then 1 else 0 end`;
    conditions.push(
      sql`((posts.author_id in ${follows} and posts.created_at >= ${w.since}) or posts.id in (select l.post_id from likes l where l.user_id = ${w.viewerId} and l.created_at >= ${w.since} and l.created_at <= ${w.until}))`,
    );
  } else {
    conditions.push(sql`posts.created_at >= ${w.since}`);
  }
  // Readable by the viewer (a protected author's posts count for the author and approved
  // followers only) and, in personalized trends, by no one the viewer mutes or blocks.
  conditions.push(visibilitySql(SHOWN, sql.ref('posts.author_id'), w.viewerId));
  if (w.country) {
    const country = lite ? sql`json_extract(posts.geo, '$.country_code')` : sql`(posts.geo::jsonb ->> 'country_code')`;
    conditions.push(sql`posts.geo is not null and upper(coalesce(${country}, '')) = ${w.country}`);
  }
  const where = sql.join(conditions, sql` and `);
  const result = await sql<{ tag: string; posts: number | string; first_at: string; from_follows: number | string }>`
    select min(${tag}) as tag, count(distinct posts.id) as posts, min(posts.created_at) as first_at, max(${followed}) as from_follows
    from ${rows}
    where ${where} and ${tag} is not null
    group by lower(${tag})
    order by count(distinct posts.id) desc, lower(${tag}) asc
    limit ${w.limit}`.execute(db);
  return result.rows.map((r) => ({ tag: r.tag, posts: Number(r.posts), first_at: r.first_at, from_follows: Number(r.from_follows) }));
}
