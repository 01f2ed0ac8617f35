import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byRuleId, postTerms, RuleIndex } from '../../src/platform/stream-rules/index.js';
import { compileMatcher, parseQuery, QueryError, type MatchablePost } from '../../src/query/index.js';
import { prng } from './corpus.js';

type Rng = ReturnType<typeof prng>;

const WORDS = ['cat', 'dog', 'Café', 'cafe', 'naïve', 'apple', 'iPad', 'iphone', 'plaza', 'social', 'news', 'rain', 'sun', 'moon', 'e-mail'];
const USERS = [
  { id: '101', username: 'ada' },
  { id: '102', username: 'Chen' },
  { id: '103', username: 'dana' },
  { id: '104', username: 'plazanews' },
];
const TAGS = ['Cats', 'plaza', 'news'];
const CASH = ['AAPL', 'TSLA'];
const LANGS = ['en', 'fr', 'de'];
const PLACES = ['01a9a39529b27f36', '5a110d312052166f'];

/** A generated post with every fact the matcher reads. */
function post(r: Rng, i: number): MatchablePost {
  const author = r.pick(USERS);
  const words = Array.from({ length: 1 + r.int(6) }, () => r.pick(WORDS));
  if (r.chance(0.15)) words.push('🚀');
  const hashtags = r.chance(0.3) ? [{ tag: r.pick(TAGS) }] : [];
  const cashtags = r.chance(0.15) ? [{ tag: r.pick(CASH) }] : [];
  const mentions = r.chance(0.25) ? [{ username: r.pick(USERS).username }] : [];
  const urls = r.chance(0.2) ? [{ expanded_url: r.pick(['https://example.com/a', 'https://plaza.dev/news']) }] : [];
  const replyTo = r.chance(0.3) ? r.pick(USERS) : null;
  const reposted = r.chance(0.15) ? r.pick(USERS) : null;
  const geo = r.chance(0.2) ? { place_id: r.pick(PLACES), country_code: r.pick(['FR', 'US']), coordinates: { coordinates: [2.35, 48.85] as [number, number] } } : null;
  const mediaTypes = r.chance(0.2) ? [r.pick(['photo', 'video', 'animated_gif'])] : [];
  return {
    id: String(1_000_000 + i * 7919),
    text: [...words, ...hashtags.map((h) => `#${h.tag}`), ...cashtags.map((c) => `$${c.tag}`), ...mentions.map((m) => `@${m.username}`)].join(' '),
    authorId: author.id,
    authorUsername: author.username,
    authorName: author.username.toUpperCase(),
    authorDescription: r.pick(['data scientist', 'café owner', 'writer']),
    authorLocation: r.pick(['Zürich', 'Paris', '']),
    authorVerified: r.chance(0.5),
    inReplyToPostId: replyTo ? '55' : null,
    inReplyToUserId: replyTo?.id ?? null,
    inReplyToUsername: replyTo?.username ?? null,
    conversationId: r.pick(['55', '66', String(i)]),
    quotedPostId: r.chance(0.15) ? '77' : null,
    repostedPostId: reposted ? '88' : null,
    repostedAuthorId: reposted?.id ?? null,
    repostedAuthorUsername: reposted?.username ?? null,
    lang: r.pick(LANGS),
    entities: { hashtags, cashtags, mentions, urls },
    contextAnnotations: r.chance(0.2) ? [{ domain: { id: '10' }, entity: { id: '100', name: 'Plaza' } }] : [],
    geo,
    mediaKeys: mediaTypes.map((_, k) => `3_${i}_${k}`),
    mediaTypes,
    likeCount: r.int(20),
    replyCount: r.int(5),
    repostCount: r.int(5),
  };
}

/** A random atom of the rule grammar, stream-only operators included. */
function atom(r: Rng): string {
  const user = () => r.pick([...USERS.map((u) => u.username), ...USERS.map((u) => u.id), 'ADA']);
  switch (r.int(17)) {
    case 0:
    case 1:
    case 2:
    case 3:
      return r.pick(WORDS);
    case 4:
      return `"${r.pick(WORDS)} ${r.pick(WORDS)}"`;
    case 5:
      return `"${r.pick(WORDS)} ${r.pick(WORDS)}"~${r.int(6)}`;
    case 6:
      return r.pick(['🚀', `#${r.pick(TAGS)}`, `$${r.pick(CASH)}`, `@${user()}`]);
    case 7:
      return `from:${user()}`;
    case 8:
      return r.pick([`to:${user()}`, `reposts_of:${user()}`, `retweets_of:${user()}`, `conversation_id:${r.pick(['55', '66'])}`]);
    case 9:
      return r.pick(['url:example.com', 'bio:scientist', 'bio_location:paris', 'bio_name:ada', `place:${r.pick(PLACES)}`, `place_country:${r.pick(['fr', 'US'])}`]);
    case 10:
      return r.pick(['point_radius:[2.35 48.85 20km]', 'bounding_box:[2.0 48.5 2.6 49.1]', 'context:10.100', 'entity:plaza']);
    case 11:
      return r.pick(['is:retweet', 'is:reply', 'is:quote', 'is:verified', '-is:nullcast']);
    case 12:
      return r.pick(['has:hashtags', 'has:cashtags', 'has:links', 'has:mentions', 'has:media', 'has:images', 'has:video_link', 'has:geo']);
    case 13:
      return `lang:${r.pick(LANGS)}`;
    case 14:
      return `sample:${1 + r.int(99)}`;
    case 15:
      return r.pick([`min_likes:${r.int(20)}`, `min_replies:${r.int(5)}`, `min_reposts:${r.int(5)}`]);
    default:
      return r.pick(WORDS);
  }
}

function rule(r: Rng, depth = 0): string {
  const group = () => {
    const items = Array.from({ length: 1 + r.int(2) }, () => (depth < 2 && r.chance(0.2) ? `(${rule(r, depth + 1)})` : atom(r)));
    if (r.chance(0.3)) items.push(`-${atom(r).replace(/^-/, '')}`);
    return items.join(' ');
  };
  return Array.from({ length: 1 + r.int(2) }, group).join(' OR ');
}

/** Generated rules the grammar accepts, with ids in a shuffled order. */
function rules(r: Rng, n: number) {
  const out: Array<{ id: string; tag?: string; value: string; ast: ReturnType<typeof parseQuery> }> = [];
  for (let i = 0; out.length < n && i < n * 4; i++) {
    const value = rule(r);
    try {
      out.push({ id: String(r.int(1) === 0 ? 9_000 + i : 10_000_000 + i), tag: r.chance(0.5) ? `t${i}` : undefined, value, ast: parseQuery(value) });
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
    }
  }
  return out;
}

/** Every rule checked one by one: the answer the index must give. */
function bruteForce(all: ReturnType<typeof rules>, p: MatchablePost): string[] {
  return all.filter((x) => compileMatcher(x.ast)(p)).map((x) => x.id).sort(byRuleId);
}

test('"an in-memory index over all active rules (term -> rules, then the AST matcher on the few candidates)" answers as checking every rule does, on generated rules and posts', () => {
  const r = prng(12);
  const all = rules(r, 400);
  assert.ok(all.length >= 300, `only ${all.length} generated rules were valid`);
  const index = new RuleIndex();
  for (const x of all) index.add(x);
  let matched = 0;
  for (let i = 0; i < 600; i++) {
    const p = post(r, i);
    const expected = bruteForce(all, p);
    const got = index.match(p).map((x) => x.id);
    assert.deepEqual(got, expected, `post ${JSON.stringify(p.text)} by ${p.authorUsername} (lang ${p.lang})`);
    matched += got.length;
  }
  assert.ok(matched > 600, `the generated rules matched too little to mean anything (${matched})`);
  // Most rules are filed under a term: only a few are checked on every post.
  assert.ok(index.unanchoredCount() < all.length / 2, `${index.unanchoredCount()} of ${all.length} rules have no anchor`);
});

test('"updated when rules change": removing and re-adding rules keeps the index equal to checking every rule', () => {
  const r = prng(99);
  let all = rules(r, 200);
  const index = new RuleIndex();
  for (const x of all) index.add(x);
  for (let round = 0; round < 5; round++) {
    const gone = new Set(all.filter(() => r.chance(0.3)).map((x) => x.id));
    for (const id of gone) assert.equal(index.remove(id), true);
    all = all.filter((x) => !gone.has(x.id));
    const added = rules(r, 40).map((x) => ({ ...x, id: `${x.id}${round}` }));
    for (const x of added) index.add(x);
    all = [...all, ...added];
    assert.equal(index.size, all.length);
    for (let i = 0; i < 100; i++) {
      const p = post(r, round * 1000 + i);
      assert.deepEqual(index.match(p).map((x) => x.id), bruteForce(all, p));
    }
  }
});

test('rules are filed under a required term: "from:", "#", keywords and phrases are anchors, negations are not', () => {
  const index = new RuleIndex();
  index.add({ id: '1', ast: parseQuery('from:ada -is:reply') });
  index.add({ id: '2', ast: parseQuery('"apple ipad" OR #plaza') });
  index.add({ id: '3', ast: parseQuery('url:example.com') });
  index.add({ id: '4', ast: parseQuery('cat lang:fr') });
  assert.equal(index.unanchoredCount(), 1, 'only url: has no anchor');
  const r = prng(1);
  const p = { ...post(r, 1), text: 'Apple iPad cat', lang: 'fr', authorId: '101', authorUsername: 'ada', inReplyToPostId: null, inReplyToUserId: null, inReplyToUsername: null, entities: {} };
  assert.deepEqual(index.match(p).map((x) => x.id), ['1', '2', '4']);
  const terms = postTerms(p);
  for (const t of ['w:apple', 'w:ipad', 'from:ada', 'from:101', 'lang:fr']) assert.ok(terms.has(t), t);
});

test('matching rules come back "in rule id order" (numeric, whatever the id lengths)', () => {
  const index = new RuleIndex();
  for (const id of ['1000', '20', '3', '1999999999999999999']) index.add({ id, ast: parseQuery('cat') });
  const p = { ...post(prng(2), 2), text: 'cat' };
  assert.deepEqual(index.match(p).map((x) => x.id), ['3', '20', '1000', '1999999999999999999']);
});
