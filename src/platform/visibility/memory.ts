import type { DbOrTx } from '../../store/store.js';
import { blockedAmong } from '../blocks/store.js';
import { mutedAmong } from '../mutes/store.js';
import { followedAmong } from '../users/store.js';
import { relationsOf, type Condition, type Relation } from './rule.js';

/** What the viewer has towards the authors in question: whom it follows, mutes and blocks. */
export type Relations = Readonly<Partial<Record<Relation, ReadonlySet<string>>>>;

export interface Author {
  id: string;
  protected: number;
}

/** Of some authors, those the viewer has each relation to. */
const AMONG = { follows: followedAmong, mutes: mutedAmong, blocks: blockedAmong } as const;

/** `condition` for one author, as sql.ts's condition decides it in the store. */
export function visibleTo(condition: Condition, author: Author, viewerId: string | undefined, relations: Relations): boolean {
  const has = (relation: Relation) => viewerId !== undefined && (relations[relation]?.has(author.id) ?? false);
  switch (condition.kind) {
    case 'author-public':
      return author.protected !== 1;
    case 'author-is-viewer':
      return viewerId !== undefined && author.id === viewerId;
    case 'viewer-follows-author':
      return has('follows');
    case 'viewer-mutes-author':
      return has('mutes');
    case 'viewer-blocks-author':
      return has('blocks');
    case 'not':
      return !visibleTo(condition.of, author, viewerId, relations);
    case 'any':
      return condition.of.some((c) => visibleTo(c, author, viewerId, relations));
    case 'all':
      return condition.of.every((c) => visibleTo(c, author, viewerId, relations));
  }
}

/**
 * Of `authors`, the ids of those whose content `condition` hides from the viewer. The viewer's
 * relations are read only for authors whose fate depends on them (for READABLE: the protected
 * ones), found by deciding each author under every combination of the relations it could have.
 */
export async function hiddenAuthors(db: DbOrTx, condition: Condition, viewerId: string | undefined, authors: readonly Author[]): Promise<Set<string>> {
  const relations = [...relationsOf(condition)];
  const undecided = viewerId === undefined ? [] : authors.filter((a) => dependsOnRelations(condition, a, viewerId, relations)).map((a) => a.id);
  const known: Partial<Record<Relation, ReadonlySet<string>>> = {};
  if (viewerId !== undefined && undecided.length > 0) {
    for (const relation of relations) known[relation] = await AMONG[relation](db, viewerId, undecided);
  }
  return new Set(authors.filter((a) => !visibleTo(condition, a, viewerId, known)).map((a) => a.id));
}

/** Whether some relations of the viewer to `author` would change what `condition` decides. */
function dependsOnRelations(condition: Condition, author: Author, viewerId: string, relations: readonly Relation[]): boolean {
  const only = new Set([author.id]);
  const none = new Set<string>();
  let first: boolean | undefined;
  for (let mask = 0; mask < 1 << relations.length; mask++) {
    const assumed: Partial<Record<Relation, ReadonlySet<string>>> = {};
    relations.forEach((r, i) => (assumed[r] = mask & (1 << i) ? only : none));
    const decided = visibleTo(condition, author, viewerId, assumed);
    if (first === undefined) first = decided;
    else if (decided !== first) return true;
  }
  return false;
}
