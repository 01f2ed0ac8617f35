/**
 * The query language of search, counts, filtered-stream rules and Activity keyword filters
 * (shared/reference/platform.md §6 and §9): one AST, read by the SQL compiler and the in-memory
 * matcher alike.
 */

/** Operators that match on their own. */
export const STANDALONE_OPERATORS = [
  'from', 'to', 'url', 'reposts_of', 'conversation_id', 'bio', 'bio_name', 'bio_location', 'place', 'place_country',
  'point_radius', 'bounding_box', 'context', 'entity',
] as const;

/** Operators that narrow a query but cannot be its only positive part (§6 "conjunction-required"). */
export const CONJUNCTION_OPERATORS = ['is', 'has', 'lang', 'sample', 'min_likes', 'min_replies', 'min_reposts'] as const;

/** The count-based operators the release history dates on search (spec 000, Jan 19 and May 4, 2026). */
export const COUNT_OPERATORS = ['min_likes', 'min_replies', 'min_reposts'] as const;

export const IS_VALUES = ['repost', 'reply', 'quote', 'verified', 'nullcast'] as const;
export const HAS_VALUES = ['hashtags', 'cashtags', 'links', 'mentions', 'media', 'images', 'video_link', 'geo'] as const;

export type IsValue = (typeof IS_VALUES)[number];
export type HasValue = (typeof HAS_VALUES)[number];

export type QueryNode =
  | { kind: 'and'; children: QueryNode[] }
  | { kind: 'or'; children: QueryNode[] }
  | { kind: 'not'; child: QueryNode }
  /** A keyword or quoted phrase: `tokens` folded (lowercase, no accents); `near` for "a b"~N. */
  | { kind: 'text'; tokens: string[]; phrase: boolean; near?: number; raw: string }
  /** A keyword without word characters (an emoji, a symbol): matched as a substring of the text. */
  | { kind: 'symbol'; value: string; raw: string }
  | { kind: 'hashtag' | 'cashtag' | 'mention'; value: string; raw: string }
  /** `ids`: the users `user` names, when the caller resolved them (resolveUsers); the SQL compiler then uses the index. */
  | { kind: 'from' | 'to' | 'reposts_of'; user: string; raw: string; ids?: string[] }
  | { kind: 'url'; value: string; raw: string }
  | { kind: 'conversation_id'; value: string; raw: string }
  | { kind: 'bio' | 'bio_name' | 'bio_location'; tokens: string[]; raw: string }
  | { kind: 'place'; value: string; raw: string }
  | { kind: 'place_country'; value: string; raw: string }
  | { kind: 'point_radius'; lon: number; lat: number; km: number; raw: string }
  | { kind: 'bounding_box'; west: number; south: number; east: number; north: number; raw: string }
  | { kind: 'context'; domain: string; entity: string | null; raw: string }
  | { kind: 'entity'; value: string; raw: string }
  | { kind: 'is'; value: IsValue; raw: string }
  | { kind: 'has'; value: HasValue; raw: string }
  | { kind: 'lang'; value: string; raw: string }
  | { kind: 'sample'; percent: number; raw: string }
  | { kind: 'min_likes' | 'min_replies' | 'min_reposts'; count: number; raw: string };

export type LeafNode = Exclude<QueryNode, { kind: 'and' | 'or' | 'not' }>;

/** Folds text the way every back-end compares it: lowercase, accents removed (café = cafe). */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The words of a text: runs of letters and digits after folding. SQLite's FTS5 unicode61
 * tokenizer (remove_diacritics 2) and the PostgreSQL column of migration 0008 cut text the same way.
 */
export function tokenize(text: string): string[] {
  return fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Every leaf of a query, in order. */
export function leavesOf(node: QueryNode): LeafNode[] {
  if (node.kind === 'and' || node.kind === 'or') return node.children.flatMap(leavesOf);
  if (node.kind === 'not') return leavesOf(node.child);
  return [node];
}

/** Leaves that appear without a negation above them. */
export function positiveLeaves(node: QueryNode, negated = false): LeafNode[] {
  if (node.kind === 'and' || node.kind === 'or') return node.children.flatMap((c) => positiveLeaves(c, negated));
  if (node.kind === 'not') return positiveLeaves(node.child, !negated);
  return negated ? [] : [node];
}

/** Whether the query asks for words of the post's text (keyword results, in the release history's words). */
export function hasKeyword(node: QueryNode): boolean {
  return positiveLeaves(node).some((l) => l.kind === 'text' || l.kind === 'symbol');
}

/** `node` with each from:, to: and reposts_of: given the ids `lookup` finds for its user. */
export function withUserIds(node: QueryNode, lookup: ReadonlyMap<string, string[]>): QueryNode {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { ...node, children: node.children.map((c) => withUserIds(c, lookup)) };
    case 'not':
      return { ...node, child: withUserIds(node.child, lookup) };
    case 'from':
    case 'to':
    case 'reposts_of':
      return { ...node, ids: lookup.get(node.user) ?? [] };
    default:
      return node;
  }
}
