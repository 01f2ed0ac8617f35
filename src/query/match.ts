import { tokenize, type LeafNode, type QueryNode } from './ast.js';
import { sampleBucket, withinRadius } from './geo-sample.js';

/**
 * What the in-memory matcher needs to know of one post: the post row's facts plus its author's
 * profile, the reposted post's author and the types of its media. The filtered stream builds one
 * per new post; the SQL compiler reads the same facts from the store.
 */
export interface MatchablePost {
  id: string;
  text: string;
  authorId: string;
  authorUsername: string;
  authorName: string;
  authorDescription: string;
  authorLocation: string;
  authorVerified: boolean;
  inReplyToPostId: string | null;
  inReplyToUserId: string | null;
  inReplyToUsername: string | null;
  conversationId: string;
  quotedPostId: string | null;
  repostedPostId: string | null;
  repostedAuthorId: string | null;
  repostedAuthorUsername: string | null;
  lang: string;
  entities: {
    urls?: Array<{ expanded_url?: string; url?: string }>;
    mentions?: Array<{ username: string }>;
    hashtags?: Array<{ tag: string }>;
    cashtags?: Array<{ tag: string }>;
  };
  contextAnnotations: Array<{ domain?: { id?: string }; entity?: { id?: string; name?: string } }>;
  geo: { place_id?: string; country_code?: string; coordinates?: { coordinates?: [number, number] } } | null;
  mediaKeys: string[];
  /** media type of each attached media: photo, video, animated_gif. */
  mediaTypes: string[];
  likeCount: number;
  replyCount: number;
  repostCount: number;
}

/** A compiled matcher: tokenizes the post once, then answers the query. */
export function compileMatcher(ast: QueryNode): (post: MatchablePost) => boolean {
  return (post) => evaluate(ast, new Facts(post));
}

/**
 * compileMatcher's matcher over one post's facts (`new MatchFacts(post)`), so that many queries
 * checked against one post, as the filtered stream's rule index does, tokenize it once.
 */
export function compileFactsMatcher(ast: QueryNode): (facts: MatchFacts) => boolean {
  return (facts) => evaluate(ast, facts);
}

/** One post's lazily computed words. */
class Facts {
  private words?: string[];
  private bios = new Map<string, string[]>();
  constructor(readonly post: MatchablePost) {}
  textWords(): string[] {
    return (this.words ??= tokenize(this.post.text));
  }
  bioWords(field: 'authorDescription' | 'authorName' | 'authorLocation'): string[] {
    let words = this.bios.get(field);
    if (!words) this.bios.set(field, (words = tokenize(this.post[field])));
    return words;
  }
}

/** What a matcher computes of one post, shareable between matchers of the same post. */
export { Facts as MatchFacts };
type MatchFacts = Facts;

function evaluate(node: QueryNode, facts: Facts): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((c) => evaluate(c, facts));
    case 'or':
      return node.children.some((c) => evaluate(c, facts));
    case 'not':
      return !evaluate(node.child, facts);
    default:
      return leaf(node, facts);
  }
}

/** Whether `tokens` occur consecutively in `words`. */
export function containsPhrase(words: readonly string[], tokens: readonly string[]): boolean {
  outer: for (let i = 0; i + tokens.length <= words.length; i++) {
    for (let j = 0; j < tokens.length; j++) if (words[i + j] !== tokens[j]) continue outer;
    return true;
  }
  return false;
}

/**
 * Proximity `"a b"~N` (FTS5's NEAR): one occurrence of each word, at distinct places, with at
 * most N other words between the first and the last of them, in any order.
 */
export function near(words: readonly string[], tokens: readonly string[], distance: number): boolean {
  const places = tokens.map((t) => words.flatMap((w, i) => (w === t ? [i] : [])));
  if (places.some((p) => p.length === 0)) return false;
  const pick = (k: number, chosen: number[]): boolean => {
    if (k === tokens.length) return Math.max(...chosen) - Math.min(...chosen) + 1 - tokens.length <= distance;
    return places[k].some((p) => !chosen.includes(p) && pick(k + 1, [...chosen, p]));
  };
  return pick(0, []);
}

const userIs = (id: string | null, username: string | null, wanted: string) => id === wanted || (username ?? '').toLowerCase() === wanted;

function leaf(node: LeafNode, facts: Facts): boolean {
  const p = facts.post;
  switch (node.kind) {
    case 'text':
      if (node.near !== undefined) return near(facts.textWords(), node.tokens, node.near);
      return node.phrase ? containsPhrase(facts.textWords(), node.tokens) : facts.textWords().includes(node.tokens[0]);
    case 'symbol':
      return p.text.includes(node.value);
    case 'hashtag':
      return (p.entities.hashtags ?? []).some((h) => h.tag.toLowerCase() === node.value);
    case 'cashtag':
      return (p.entities.cashtags ?? []).some((c) => c.tag.toLowerCase() === node.value);
    case 'mention':
      return (p.entities.mentions ?? []).some((m) => m.username.toLowerCase() === node.value);
    case 'from':
      return userIs(p.authorId, p.authorUsername, node.user);
    case 'to':
      return p.inReplyToUserId !== null && userIs(p.inReplyToUserId, p.inReplyToUsername, node.user);
    case 'reposts_of':
      return p.repostedAuthorId !== null && userIs(p.repostedAuthorId, p.repostedAuthorUsername, node.user);
    case 'url':
      return (p.entities.urls ?? []).some((u) => (u.expanded_url ?? u.url ?? '').toLowerCase().includes(node.value));
    case 'conversation_id':
      return p.conversationId === node.value;
    case 'bio':
      return containsPhrase(facts.bioWords('authorDescription'), node.tokens);
    case 'bio_name':
      return containsPhrase(facts.bioWords('authorName'), node.tokens);
    case 'bio_location':
      return containsPhrase(facts.bioWords('authorLocation'), node.tokens);
    case 'place':
      return (p.geo?.place_id ?? '').toLowerCase() === node.value;
    case 'place_country':
      return (p.geo?.country_code ?? '').toUpperCase() === node.value;
    case 'point_radius': {
      const c = p.geo?.coordinates?.coordinates;
      return !!c && withinRadius(node.lon, node.lat, node.km, c[0], c[1]);
    }
    case 'bounding_box': {
      const c = p.geo?.coordinates?.coordinates;
      return !!c && c[0] >= node.west && c[0] <= node.east && c[1] >= node.south && c[1] <= node.north;
    }
    case 'context':
      return p.contextAnnotations.some((a) => String(a.domain?.id ?? '') === node.domain && (node.entity === null || String(a.entity?.id ?? '') === node.entity));
    case 'entity':
      return p.contextAnnotations.some((a) => (a.entity?.name ?? '').toLowerCase() === node.value);
    case 'is':
      switch (node.value) {
        case 'repost':
          return p.repostedPostId !== null;
        case 'reply':
          return p.inReplyToPostId !== null;
        case 'quote':
          return p.quotedPostId !== null;
        case 'verified':
          return p.authorVerified;
        case 'nullcast':
          // Plaza writes no promoted-only (nullcast) posts: every post is organic.
          return false;
      }
      return false;
    case 'has':
      switch (node.value) {
        case 'hashtags':
          return (p.entities.hashtags ?? []).length > 0;
        case 'cashtags':
          return (p.entities.cashtags ?? []).length > 0;
        case 'links':
          return (p.entities.urls ?? []).length > 0;
        case 'mentions':
          return (p.entities.mentions ?? []).length > 0;
        case 'media':
          return p.mediaKeys.length > 0;
        case 'images':
          return p.mediaTypes.includes('photo');
        case 'video_link':
          return p.mediaTypes.includes('video');
        case 'geo':
          return p.geo !== null;
      }
      return false;
    case 'lang':
      return p.lang.toLowerCase() === node.value;
    case 'sample':
      return sampleBucket(p.id) < node.percent;
    case 'min_likes':
      return p.likeCount >= node.count;
    case 'min_replies':
      return p.replyCount >= node.count;
    case 'min_reposts':
      return p.repostCount >= node.count;
  }
}
