/**
 * Who sees whose content, declared once and compiled twice, the way src/query/ compiles the query
 * language: to an SQL condition over an author column (sql.ts: search, trends, notes, keyword
 * insights) and to a predicate over rows in memory (memory.ts: lookups, expansions, streams,
 * reposts, likes). test/platform/visibility checks that the two compilations agree.
 */
export type Condition =
  /** The author's account is not protected. */
  | { kind: 'author-public' }
  /** The viewer is the author. */
  | { kind: 'author-is-viewer' }
  /** The viewer follows the author (for a protected author: an approved follower). */
  | { kind: 'viewer-follows-author' }
  | { kind: 'viewer-mutes-author' }
  | { kind: 'viewer-blocks-author' }
  | { kind: 'any'; of: readonly Condition[] }
  | { kind: 'all'; of: readonly Condition[] }
  | { kind: 'not'; of: Condition };

/** The relations a condition reads between the viewer and authors. */
export type Relation = 'follows' | 'mutes' | 'blocks';

const any = (...of: Condition[]): Condition => ({ kind: 'any', of });
const all = (...of: Condition[]): Condition => ({ kind: 'all', of });
const not = (of: Condition): Condition => ({ kind: 'not', of });

/**
 * Spec 000 "Protected accounts": a protected author's posts reach only the author and their
 * approved followers. Without a viewer (an app's bearer token, a stream, a note writer's pool of
 * public posts), only public authors' posts.
 */
export const READABLE: Condition = any({ kind: 'author-public' }, { kind: 'author-is-viewer' }, { kind: 'viewer-follows-author' });

/** What a viewer's own lists of others (trends) leave out: authors the viewer mutes or blocks. */
export const NOT_SILENCED: Condition = all(not({ kind: 'viewer-mutes-author' }), not({ kind: 'viewer-blocks-author' }));

/** Readable and not silenced: what personalized lists show. */
export const SHOWN: Condition = all(READABLE, NOT_SILENCED);

/** The relations `condition` reads, so a caller in memory loads only those. */
export function relationsOf(condition: Condition, into = new Set<Relation>()): Set<Relation> {
  switch (condition.kind) {
    case 'viewer-follows-author':
      into.add('follows');
      break;
    case 'viewer-mutes-author':
      into.add('mutes');
      break;
    case 'viewer-blocks-author':
      into.add('blocks');
      break;
    case 'any':
    case 'all':
      for (const c of condition.of) relationsOf(c, into);
      break;
    case 'not':
      relationsOf(condition.of, into);
      break;
  }
  return into;
}
