import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseQuery, QueryError } from '../../src/query/index.js';

const bad = (query: string, message: string) => {
  assert.throws(() => parseQuery(query), (err: unknown) => {
    assert.ok(err instanceof QueryError, `${query}: ${String(err)}`);
    assert.equal(err.message, message, query);
    return true;
  });
};

test('"A space means AND; OR; AND binds before OR": apple OR iphone ipad = apple OR (iphone ipad)', () => {
  assert.deepEqual(parseQuery('apple OR iphone ipad'), {
    kind: 'or',
    children: [
      { kind: 'text', tokens: ['apple'], phrase: false, raw: 'apple' },
      { kind: 'and', children: [{ kind: 'text', tokens: ['iphone'], phrase: false, raw: 'iphone' }, { kind: 'text', tokens: ['ipad'], phrase: false, raw: 'ipad' }] },
    ],
  });
  const grouped = parseQuery('(apple OR iphone) ipad');
  assert.equal(grouped.kind, 'and');
});

test('"matching is case-insensitive" and accents match with or without them: keywords are folded', () => {
  assert.deepEqual(parseQuery('Café'), { kind: 'text', tokens: ['cafe'], phrase: false, raw: 'Café' });
  assert.deepEqual(parseQuery('"Crème Brûlée"'), { kind: 'text', tokens: ['creme', 'brulee'], phrase: true, raw: '"Crème Brûlée"' });
  // Lowercase "or" is a keyword, not the operator.
  assert.equal(parseQuery('cats or dogs').kind, 'and');
});

test('"-" negates, quoted phrases, proximity "a b"~N with N at most 6', () => {
  assert.deepEqual(parseQuery('cat -dog'), {
    kind: 'and',
    children: [{ kind: 'text', tokens: ['cat'], phrase: false, raw: 'cat' }, { kind: 'not', child: { kind: 'text', tokens: ['dog'], phrase: false, raw: 'dog' } }],
  });
  assert.deepEqual(parseQuery('"social media"~5'), { kind: 'text', tokens: ['social', 'media'], phrase: true, near: 5, raw: '"social media"~5' });
  bad('"social media"~7', 'proximity ~7 is more than 6 at 15');
  bad('"one two three four"~2', 'a proximity phrase holds at most 3 words at 1');
  bad('"unterminated', 'unterminated quoted phrase at 1');
});

test('every standalone operator of §6 parses: keyword, emoji, #, @, $, from:, to:, url:, retweets_of:, reposts_of:, context:, entity:, conversation_id:, bio:, bio_name:, bio_location:, place:, place_country:, point_radius:, bounding_box:', () => {
  const kinds = (q: string) => parseQuery(q);
  assert.deepEqual(kinds('😀'), { kind: 'symbol', value: '😀', raw: '😀' });
  assert.deepEqual(kinds('#Plaza'), { kind: 'hashtag', value: 'plaza', raw: '#Plaza' });
  assert.deepEqual(kinds('@Ada'), { kind: 'mention', value: 'ada', raw: '@Ada' });
  assert.deepEqual(kinds('$AAPL'), { kind: 'cashtag', value: 'aapl', raw: '$AAPL' });
  assert.deepEqual(kinds('from:Ada'), { kind: 'from', user: 'ada', raw: 'from:Ada' });
  assert.deepEqual(kinds('from:12345'), { kind: 'from', user: '12345', raw: 'from:12345' });
  assert.deepEqual(kinds('to:@ada'), { kind: 'to', user: 'ada', raw: 'to:@ada' });
  assert.deepEqual(kinds('url:"example.com/a"'), { kind: 'url', value: 'example.com/a', raw: 'url:"example.com/a"' });
  assert.deepEqual(kinds('retweets_of:ada'), { kind: 'reposts_of', user: 'ada', raw: 'retweets_of:ada' });
  assert.deepEqual(kinds('reposts_of:ada'), { kind: 'reposts_of', user: 'ada', raw: 'reposts_of:ada' });
  assert.deepEqual(kinds('context:10.799022225751871488'), { kind: 'context', domain: '10', entity: '799022225751871488', raw: 'context:10.799022225751871488' });
  assert.deepEqual(kinds('context:10.*'), { kind: 'context', domain: '10', entity: null, raw: 'context:10.*' });
  assert.deepEqual(kinds('entity:"Michael Jordan"'), { kind: 'entity', value: 'michael jordan', raw: 'entity:"Michael Jordan"' });
  assert.deepEqual(kinds('conversation_id:1334987486343299072'), { kind: 'conversation_id', value: '1334987486343299072', raw: 'conversation_id:1334987486343299072' });
  assert.deepEqual(kinds('bio:"Data Scientist"'), { kind: 'bio', tokens: ['data', 'scientist'], raw: 'bio:"Data Scientist"' });
  assert.deepEqual(kinds('bio_name:ada'), { kind: 'bio_name', tokens: ['ada'], raw: 'bio_name:ada' });
  assert.deepEqual(kinds('bio_location:Zürich'), { kind: 'bio_location', tokens: ['zurich'], raw: 'bio_location:Zürich' });
  assert.deepEqual(kinds('place:"01a9a39529b27f36"'), { kind: 'place', value: '01a9a39529b27f36', raw: 'place:"01a9a39529b27f36"' });
  assert.deepEqual(kinds('place_country:fr'), { kind: 'place_country', value: 'FR', raw: 'place_country:fr' });
  const radius = kinds('point_radius:[2.35 48.85 10km]');
  assert.equal(radius.kind, 'point_radius');
  assert.deepEqual(kinds('bounding_box:[-105.3 39.9 -105.1 40.1]'), { kind: 'bounding_box', west: -105.3, south: 39.9, east: -105.1, north: 40.1, raw: 'bounding_box:[-105.3 39.9 -105.1 40.1]' });
});

test('operator values are checked, naming the operator and the position', () => {
  bad('cat from:', 'from: needs a value at 5');
  bad('cat from:not-a-user', 'from: [not-a-user] is not a username or user id at 5');
  bad('cat conversation_id:abc', 'conversation_id: [abc] is not a post id at 5');
  bad('cat point_radius:[2.35 48.85 100km]', 'point_radius: the radius must be more than 0 and at most 25mi (40km) at 5');
  bad('cat point_radius:[200 48.85 1km]', 'point_radius: longitude [200] is not between -180 and 180 at 5');
  bad('cat bounding_box:[1 2 3]', 'bounding_box: expects [west_long south_lat east_long north_lat] at 5');
  bad('cat is:famous', 'is: [famous] is not one of retweet, repost, reply, quote, verified, nullcast at 5');
  bad('cat has:cats', 'has: [cats] is not one of hashtags, cashtags, links, mentions, media, images, video_link, geo at 5');
  bad('cat sample:101', 'sample: [101] is not a whole percentage from 1 to 100 at 5');
  bad('cat lang:123', 'lang: [123] is not a language code at 5');
  bad('cat min_likes:many', 'min_likes: [many] is not a whole number at 5');
  bad('cat place_country:France', 'place_country: [France] is not a two-letter ISO country code at 5');
  bad('cat context:abc', 'context: [abc] is not domain_id.entity_id (or domain_id.*) at 5');
});

test('every conjunction-required operator parses beside a keyword and "cannot be used alone": is:, has:, lang:, sample:, min_*:', () => {
  const ops = [
    'is:retweet', 'is:repost', 'is:reply', 'is:quote', 'is:verified', '-is:nullcast', 'has:hashtags', 'has:cashtags', 'has:links', 'has:mentions',
    'has:media', 'has:images', 'has:video_link', 'has:geo', 'lang:fr', 'sample:10', 'min_likes:5', 'min_replies:2', 'min_reposts:1',
  ];
  for (const op of ops) {
    assert.equal(parseQuery(`cat ${op}`).kind, 'and', op);
    if (op.startsWith('-')) bad(op, `negated operator ${op} cannot be used alone at 1`);
    else bad(op, `operator ${op} cannot be used alone at 1`);
  }
  bad('is:reply has:media', 'operator is:reply cannot be used alone at 1');
  // Each branch of an OR must be able to stand alone.
  bad('cat OR is:reply', 'operator is:reply cannot be used alone at 8');
  assert.equal(parseQuery('(cat OR dog) is:reply').kind, 'and');
  bad('cat is:nullcast', 'operator is:nullcast can only be used negated, as -is:nullcast at 5');
});

test('"Negation rules: a negated operator cannot be used alone; do not negate a group"', () => {
  bad('-cat', 'negated operator -cat cannot be used alone at 1');
  bad('-from:ada', 'negated operator -from:ada cannot be used alone at 1');
  bad('-cat -dog', 'negated operator -cat cannot be used alone at 1');
  bad('cat -(dog OR fish)', 'negated group: negate each keyword or operator inside it instead at 5');
  assert.equal(parseQuery('cat -from:ada').kind, 'and');
});

test('"unbalanced parenthesis at N", empty queries, stray OR and dangling negation are errors with their position', () => {
  bad('(cat OR dog) fish)', 'unbalanced parenthesis at 18');
  bad('cat (dog OR fish', 'unbalanced parenthesis at 5');
  bad('cat ()', 'empty parentheses at 6');
  bad('', 'empty query at 1');
  bad('   ', 'empty query at 1');
  bad('OR cat', 'OR needs a keyword or operator on each side at 1');
  bad('cat OR', 'OR needs a keyword or operator on each side at 5');
  bad('cat OR OR dog', 'OR needs a keyword or operator on each side at 5');
  bad('cat - dog', 'negation "-" must come right before a keyword or operator at 5');
});

test('a word longer than the text index holds (2046 bytes) is refused rather than never matching', () => {
  bad(`cat ${'x'.repeat(2047)}`, 'a word longer than 2046 bytes cannot be searched at 5');
});
