import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Condition } from './rule.js';

type Cond = RawBuilder<SqlBool>;

const TRUE_ = sql<SqlBool>`(1 = 1)`;
const FALSE_ = sql<SqlBool>`(1 = 0)`;

/**
 * `condition` as an SQL condition (the same text on SQLite and PostgreSQL) for the author whose id
 * is `author` (a column reference, e.g. `sql.ref('posts.author_id')`), seen by `viewerId` (none: an
 * app, a stream). Every part is true or false, never NULL, so NOT means what memory.ts's NOT means.
 */
export function visibilitySql(condition: Condition, author: RawBuilder<unknown>, viewerId: string | undefined): Cond {
  const pair = (table: 'follows' | 'mutes' | 'blocks') =>
    viewerId === undefined ? FALSE_ : sql<SqlBool>`exists (select 1 from ${sql.table(table)} r where r.source_user_id = ${viewerId} and r.target_user_id = ${author})`;
  switch (condition.kind) {
    case 'author-public':
      return sql<SqlBool>`not exists (select 1 from users u where u.id = ${author} and u.protected = 1)`;
    case 'author-is-viewer':
      return viewerId === undefined ? FALSE_ : sql<SqlBool>`(${author} = ${viewerId})`;
    case 'viewer-follows-author':
      return pair('follows');
    case 'viewer-mutes-author':
      return pair('mutes');
    case 'viewer-blocks-author':
      return pair('blocks');
    case 'not': {
      const inner = visibilitySql(condition.of, author, viewerId);
      return inner === FALSE_ ? TRUE_ : inner === TRUE_ ? FALSE_ : sql<SqlBool>`not ${inner}`;
    }
    case 'any':
    case 'all': {
      // Constant parts (no viewer) fold away, so an app's search carries only what applies to it.
      const [absorbing, neutral] = condition.kind === 'any' ? [TRUE_, FALSE_] : [FALSE_, TRUE_];
      const parts = condition.of.map((c) => visibilitySql(c, author, viewerId)).filter((c) => c !== neutral);
      if (parts.includes(absorbing)) return absorbing;
      if (parts.length === 0) return neutral;
      if (parts.length === 1) return parts[0];
      return sql<SqlBool>`(${sql.join(parts, condition.kind === 'any' ? sql` or ` : sql` and `)})`;
    }
  }
}
