/**
 * Filtered-stream matching throughput (issue #12 "Performance: matching throughput"), standalone
 * and in-process (no HTTP, no store): `npx tsx bench/stream-match.ts [--posts 20000] [--sizes
 * 1000,5000,25000,100000] [--seed 1]`, or `npm run bench:stream-match`.
 *
 * Rules of realistic shape (keywords, phrases, proximity, from:, @, #, has:, lang:, is:,
 * negations, ORs and groups) are generated over a 20,000-word vocabulary; posts are 8 to 30 words
 * drawn with a Zipf distribution (so common words are common), with authors, hashtags, mentions,
 * links, media, replies, reposts and languages. For each rule count the rule index
 * (src/platform/stream-rules/index.ts) is built, then every post is matched once, on this one
 * thread: posts per second, microseconds per post, and how many rules were run per post.
 * Targets: at least 20,000 posts/s at 25,000 rules; cost growing sub-linearly with the rule count.
 * Before timing, the index's answers on the first posts are checked against every rule's own matcher.
 */
import { performance } from 'node:perf_hooks';
import { RuleIndex } from '../src/platform/stream-rules/index.js';
import { compileMatcher, parseQuery, type MatchablePost, type QueryNode } from '../src/query/index.js';
import { mulberry32 } from '../scripts/prng.js';
import { flag } from './args.js';

const POSTS = Number(flag('posts', '20000'));
const SIZES = flag('sizes', '1000,5000,25000,100000').split(',').map(Number);
const SEED = Number(flag('seed', '1'));
const TARGET_POSTS_PER_S = 20_000;

const rnd = mulberry32(SEED);
const int = (n: number) => Math.floor(rnd() * n);
const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
const chance = (p: number) => rnd() < p;

// A vocabulary of pronounceable words; the first ones are the most frequent (Zipf, s = 1).
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'te', 'su', 'no', 'vi', 'da', 'pe', 'zo', 'ri', 'ba', 'ne', 'fu', 'go', 'li', 'sa', 'to', 'me'];
const VOCAB = (() => {
  const words = new Set<string>(['the', 'a', 'to', 'and', 'of', 'in', 'is', 'it', 'you', 'that', 'for', 'on', 'with', 'this', 'be', 'are', 'not', 'at', 'so', 'just']);
  while (words.size < 20_000) words.add(Array.from({ length: 2 + int(3) }, () => pick(SYLLABLES)).join(''));
  return [...words];
})();
const HARMONIC = VOCAB.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
/** A word by Zipf rank: inverse of the cumulative 1/rank distribution, by bisection over a precomputed table. */
const CUMULATIVE = (() => {
  const out = new Float64Array(VOCAB.length);
  let acc = 0;
  VOCAB.forEach((_, i) => (out[i] = acc += 1 / (i + 1) / HARMONIC));
  return out;
})();
function zipfWord(): string {
  const x = rnd();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCAB[lo]!;
}
/** Rule keywords: what people filter on is rarer than "the" (ranks 100 to 20,000). */
const ruleWord = () => VOCAB[100 + int(VOCAB.length - 100)]!;
const USERS = Array.from({ length: 50_000 }, (_, i) => ({ id: String(1_000_000 + i), username: `user${i}` }));
const TAGS = Array.from({ length: 5_000 }, (_, i) => `tag${i}`);
const LANGS = ['en', 'en', 'en', 'es', 'fr', 'de', 'ja', 'pt'];

/** One rule of a realistic shape. */
function ruleValue(): string {
  const w = ruleWord;
  switch (int(14)) {
    case 0:
    case 1:
      return w();
    case 2:
      return `${w()} ${w()}`;
    case 3:
      return `"${w()} ${w()}"`;
    case 4:
      return `${w()} OR ${w()} OR ${w()}`;
    case 5:
      return `from:${pick(USERS).username}`;
    case 6:
      return `#${pick(TAGS)} -is:retweet`;
    case 7:
      return `${w()} has:${pick(['images', 'links', 'media', 'hashtags'])}`;
    case 8:
      return `${w()} lang:${pick(LANGS)}`;
    case 9:
      return `${w()} -${w()} -is:retweet -is:reply`;
    case 10:
      return `(${w()} OR ${w()}) ${w()}`;
    case 11:
      return `@${pick(USERS).username} OR from:${pick(USERS).username}`;
    case 12:
      return `"${w()} ${w()}"~3 -from:${pick(USERS).username}`;
    default:
      return `(#${pick(TAGS)} OR ${w()}) lang:${pick(LANGS)} -has:links`;
  }
}

function post(i: number): MatchablePost {
  const author = pick(USERS);
  const words = Array.from({ length: 8 + int(23) }, zipfWord);
  const hashtags = Array.from({ length: chance(0.3) ? 1 + int(2) : 0 }, () => ({ tag: pick(TAGS) }));
  const mentions = chance(0.25) ? [{ username: pick(USERS).username }] : [];
  const urls = chance(0.2) ? [{ expanded_url: 'https://example.com/x' }] : [];
  const reply = chance(0.3) ? pick(USERS) : null;
  const repost = chance(0.1) ? pick(USERS) : null;
  const media = chance(0.2) ? [pick(['photo', 'video'])] : [];
  return {
    id: String(2_000_000_000 + i),
    text: [...words, ...hashtags.map((h) => `#${h.tag}`), ...mentions.map((m) => `@${m.username}`), ...urls.map((u) => u.expanded_url)].join(' '),
    authorId: author.id,
    authorUsername: author.username,
    authorName: author.username,
    authorDescription: '',
    authorLocation: '',
    authorVerified: chance(0.1),
    inReplyToPostId: reply ? '1' : null,
    inReplyToUserId: reply?.id ?? null,
    inReplyToUsername: reply?.username ?? null,
    conversationId: String(i),
    quotedPostId: null,
    repostedPostId: repost ? '2' : null,
    repostedAuthorId: repost?.id ?? null,
    repostedAuthorUsername: repost?.username ?? null,
    lang: pick(LANGS),
    entities: { hashtags, mentions, urls },
    contextAnnotations: [],
    geo: null,
    mediaKeys: media.map((_, k) => `3_${i}_${k}`),
    mediaTypes: media,
    likeCount: 0,
    replyCount: 0,
    repostCount: 0,
  };
}

const maxRules = Math.max(...SIZES);
const rules: Array<{ id: string; ast: QueryNode }> = Array.from({ length: maxRules }, (_, i) => ({ id: String(10_000_000 + i), ast: parseQuery(ruleValue()) }));
const posts = Array.from({ length: POSTS }, (_, i) => post(i));

console.log(`stream matching: ${POSTS} posts, rule counts ${SIZES.join(', ')}, seed ${SEED}, node ${process.version}`);
console.log('| rules | build (ms) | posts/s | µs/post | rules run/post | matches/post | always-run rules |');
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
const results: Array<{ size: number; perPost: number }> = [];
for (const size of SIZES) {
  const t0 = performance.now();
  const index = new RuleIndex();
  for (let i = 0; i < size; i++) index.add(rules[i]!);
  const build = performance.now() - t0;

  // The index answers as every rule's own matcher does (checked on a few posts, untimed).
  const all = rules.slice(0, size).map((r) => ({ id: r.id, matches: compileMatcher(r.ast) }));
  for (const p of posts.slice(0, 50)) {
    const expected = all.filter((r) => r.matches(p)).map((r) => r.id).join(',');
    const got = index.match(p).map((r) => r.id).join(',');
    if (expected !== got) throw new Error(`index and matchers disagree on post ${p.id} at ${size} rules: ${got} vs ${expected}`);
  }

  // Warm-up, then the timed pass.
  for (const p of posts.slice(0, 2000)) index.match(p);
  let matches = 0;
  const start = performance.now();
  for (const p of posts) matches += index.match(p).length;
  const ms = performance.now() - start;
  const perPost = (ms * 1000) / posts.length;
  results.push({ size, perPost });
  const run = runPerPost(index, posts.slice(0, 2000));
  console.log(
    `| ${size.toLocaleString('en')} | ${build.toFixed(0)} | ${Math.round(posts.length / (ms / 1000)).toLocaleString('en')} | ${perPost.toFixed(1)} | ${run.toFixed(1)} | ${(matches / posts.length).toFixed(2)} | ${index.unanchoredCount()} |`,
  );
}

/** How many rules' matchers a post runs, on average (the candidates of its terms, plus the always-run ones). */
function runPerPost(index: RuleIndex, sample: MatchablePost[]): number {
  return sample.reduce((sum, p) => sum + index.candidateCount(p), 0) / sample.length;
}

const at = (n: number) => results.find((r) => r.size === n);
const r25 = at(25_000);
if (r25) {
  const rate = 1e6 / r25.perPost;
  console.log(`\n25,000 rules: ${Math.round(rate).toLocaleString('en')} posts/s on one core (target ≥ ${TARGET_POSTS_PER_S.toLocaleString('en')}): ${rate >= TARGET_POSTS_PER_S ? 'met' : 'NOT met'}`);
}
const [first, last] = [results[0], results[results.length - 1]];
if (first && last && last.size > first.size) {
  const growth = last.perPost / first.perPost;
  console.log(`cost per post grows ${growth.toFixed(2)}× for ${(last.size / first.size).toFixed(0)}× the rules: ${growth < last.size / first.size ? 'sub-linear' : 'NOT sub-linear'}`);
}
