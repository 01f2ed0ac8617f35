import { tokenize, type QueryNode } from '../../query/ast.js';
import { compileFactsMatcher, MatchFacts, type MatchablePost } from '../../query/match.js';

/**
 * The filtered stream's rule index (issue #12 "Matching"): term -> rules, then the AST matcher on
 * the few candidates. Each rule is filed under its anchors: a set of terms of which every post it
 * matches holds at least one (a keyword, a hashtag, from:... that the rule requires). A post looks
 * up its own terms, and only the rules filed under them, plus the rules with no anchor (only
 * negations, url:, bio:, geo...), are run through compileMatcher. The answers are exactly those of
 * running every rule's matcher (test/query/rule-index.test.ts checks it on generated rules).
 */

export interface IndexedRule {
  id: string;
  tag?: string;
  ast: QueryNode;
}

interface Entry {
  rule: IndexedRule;
  /** compileMatcher's answer, over the post's shared facts (compileFactsMatcher). */
  matches: (facts: MatchFacts) => boolean;
  /** The terms it is filed under; empty: always checked. */
  anchors: string[];
  /** The last match() call that reached it, so a rule filed under two of a post's terms runs once. */
  stamp: number;
}

/**
 * Terms of low selectivity (most posts have a language, many are replies): a rule is filed under
 * them only when it requires nothing rarer. The weight is what one such term costs in the choice.
 */
const BROAD_WEIGHT = 1_000;
const BROAD = /^(lang|is|has):/;

/** Rule ids are decimal strings of up to 19 digits: numeric order is length, then text. */
export const byRuleId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

export class RuleIndex {
  private readonly entries = new Map<string, Entry>();
  /** Rules by the word of the text they are filed under (the `w:` terms, keyed by the word alone: no string is built per word of a post). */
  private readonly words = new Map<string, Entry[]>();
  /** Rules by every other term. */
  private readonly postings = new Map<string, Entry[]>();
  private readonly unanchored = new Set<Entry>();
  private stamp = 0;

  get size(): number {
    return this.entries.size;
  }

  /** Adds a rule (replacing one of the same id). */
  add(rule: IndexedRule): void {
    this.remove(rule.id);
    const anchors = [...(this.anchorsOf(rule.ast) ?? [])];
    const entry: Entry = { rule, matches: compileFactsMatcher(rule.ast), anchors, stamp: 0 };
    this.entries.set(rule.id, entry);
    if (anchors.length === 0) this.unanchored.add(entry);
    for (const term of anchors) {
      const [map, key] = this.slot(term);
      const list = map.get(key);
      if (list) list.push(entry);
      else map.set(key, [entry]);
    }
  }

  private slot(term: string): [Map<string, Entry[]>, string] {
    return term.startsWith('w:') ? [this.words, term.slice(2)] : [this.postings, term];
  }

  remove(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    this.unanchored.delete(entry);
    for (const term of entry.anchors) {
      const [map, key] = this.slot(term);
      const list = map.get(key)!;
      const at = list.indexOf(entry);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) map.delete(key);
    }
    return true;
  }

  /** The rules the post matches, in rule id order. */
  match(post: MatchablePost): IndexedRule[] {
    const facts = new MatchFacts(post);
    const hits: IndexedRule[] = [];
    this.visitCandidates(post, facts, (e) => {
      if (e.matches(facts)) hits.push(e.rule);
    });
    return hits.length > 1 ? hits.sort((a, b) => byRuleId(a.id, b.id)) : hits;
  }

  /** How many rules' matchers match(post) runs: for tests and the bench. */
  candidateCount(post: MatchablePost): number {
    let n = 0;
    this.visitCandidates(post, new MatchFacts(post), () => n++);
    return n;
  }

  /** Each rule filed under one of the post's terms, and each unanchored one, once. */
  private visitCandidates(post: MatchablePost, facts: MatchFacts, visit: (e: Entry) => void): void {
    const stamp = ++this.stamp;
    const check = (e: Entry) => {
      if (e.stamp === stamp) return;
      e.stamp = stamp;
      visit(e);
    };
    for (const e of this.unanchored) check(e);
    if (this.words.size > 0) {
      for (const word of facts.textWords()) {
        const list = this.words.get(word);
        if (list) for (const e of list) check(e);
      }
    }
    if (this.postings.size > 0) {
      visitOtherTerms(post, (term) => {
        const list = this.postings.get(term);
        if (list) for (const e of list) check(e);
      });
    }
  }

  /** How many rules are checked on every post (no anchor): for tests and the bench. */
  unanchoredCount(): number {
    return this.unanchored.size;
  }

  /**
   * A set of terms one of which every post matching `node` holds, or undefined when there is none
   * (the rule is then checked on every post). Of an AND's children the cheapest set is taken: the
   * one whose terms currently file the fewest rules, broad terms (lang:, is:, has:) last.
   */
  private anchorsOf(node: QueryNode): Set<string> | undefined {
    switch (node.kind) {
      case 'or': {
        const all = new Set<string>();
        for (const child of node.children) {
          const a = this.anchorsOf(child);
          if (!a) return undefined;
          for (const t of a) all.add(t);
        }
        return all;
      }
      case 'and': {
        let best: Set<string> | undefined;
        let bestCost = Infinity;
        for (const child of node.children) {
          const a = this.anchorsOf(child);
          if (!a) continue;
          const cost = this.costOf(a);
          if (cost < bestCost) [best, bestCost] = [a, cost];
        }
        return best;
      }
      case 'not':
        return undefined;
      default: {
        const term = leafTerm(node);
        return term === undefined ? undefined : new Set([term]);
      }
    }
  }

  private costOf(terms: Set<string>): number {
    let cost = 0;
    for (const t of terms) {
      const [map, key] = this.slot(t);
      cost += 1 + (map.get(key)?.length ?? 0) + (BROAD.test(t) ? BROAD_WEIGHT : 0);
    }
    return cost;
  }
}

/** The term a leaf requires of a post, if any (see postTerms: each is one of those). */
function leafTerm(node: QueryNode): string | undefined {
  switch (node.kind) {
    case 'text':
      // Every word of a phrase or proximity group must be there: the longest is likely the rarest.
      return `w:${node.tokens.reduce((a, b) => (b.length > a.length ? b : a))}`;
    case 'hashtag':
      return `#${node.value}`;
    case 'cashtag':
      return `$${node.value}`;
    case 'mention':
      return `@${node.value}`;
    case 'from':
    case 'to':
    case 'reposts_of':
      return `${node.kind}:${node.user}`;
    case 'conversation_id':
      return `conversation_id:${node.value}`;
    case 'place':
      return `place:${node.value}`;
    case 'place_country':
      return `place_country:${node.value}`;
    case 'lang':
      return `lang:${node.value}`;
    case 'is':
      return `is:${node.value}`;
    case 'has':
      return `has:${node.value}`;
    default:
      // symbol, url:, bio*, geo, context:, entity:, sample:, min_*: no term; checked on every post.
      return undefined;
  }
}

/** Every term of a post that a rule may be filed under (what src/query/match.ts reads, as terms). */
export function postTerms(post: MatchablePost, facts?: MatchFacts): Set<string> {
  const terms = new Set<string>();
  for (const w of facts ? facts.textWords() : tokenize(post.text)) terms.add(`w:${w}`);
  visitOtherTerms(post, (t) => terms.add(t));
  return terms;
}

/** The post's terms other than the words of its text, each handed to `visit` (repeats possible). */
function visitOtherTerms(post: MatchablePost, visit: (term: string) => void): void {
  const terms = { add: visit };
  const e = post.entities;
  for (const h of e.hashtags ?? []) terms.add(`#${h.tag.toLowerCase()}`);
  for (const c of e.cashtags ?? []) terms.add(`$${c.tag.toLowerCase()}`);
  for (const m of e.mentions ?? []) terms.add(`@${m.username.toLowerCase()}`);
  terms.add(`from:${post.authorId}`);
  terms.add(`from:${post.authorUsername.toLowerCase()}`);
  if (post.inReplyToUserId !== null) {
    terms.add(`to:${post.inReplyToUserId}`);
    terms.add(`to:${(post.inReplyToUsername ?? '').toLowerCase()}`);
  }
  if (post.repostedAuthorId !== null) {
    terms.add(`reposts_of:${post.repostedAuthorId}`);
    terms.add(`reposts_of:${(post.repostedAuthorUsername ?? '').toLowerCase()}`);
  }
  terms.add(`conversation_id:${post.conversationId}`);
  if (post.geo) {
    terms.add(`place:${(post.geo.place_id ?? '').toLowerCase()}`);
    terms.add(`place_country:${(post.geo.country_code ?? '').toUpperCase()}`);
  }
  terms.add(`lang:${post.lang.toLowerCase()}`);
  if (post.repostedPostId !== null) terms.add('is:repost');
  if (post.inReplyToPostId !== null) terms.add('is:reply');
  if (post.quotedPostId !== null) terms.add('is:quote');
  if (post.authorVerified) terms.add('is:verified');
  if ((e.hashtags ?? []).length > 0) terms.add('has:hashtags');
  if ((e.cashtags ?? []).length > 0) terms.add('has:cashtags');
  if ((e.urls ?? []).length > 0) terms.add('has:links');
  if ((e.mentions ?? []).length > 0) terms.add('has:mentions');
  if (post.mediaKeys.length > 0) terms.add('has:media');
  if (post.mediaTypes.includes('photo')) terms.add('has:images');
  if (post.mediaTypes.includes('video')) terms.add('has:video_link');
  if (post.geo !== null) terms.add('has:geo');
}
