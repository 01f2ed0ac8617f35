import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keywordQuery } from '../../src/ads/targeting/reach.js';
import { keywordNode } from '../../src/query/parse.js';
import { QueryError } from '../../src/query/index.js';

test('keywordNode: plain text becomes the leaf its quoted or bare form would parse to, and no character of it is an operator', () => {
  assert.deepEqual(keywordNode('Café', false), { kind: 'text', tokens: ['cafe'], phrase: false, raw: 'Café' });
  assert.deepEqual(keywordNode('e-mail', false), { kind: 'text', tokens: ['e', 'mail'], phrase: true, raw: 'e-mail' });
  assert.deepEqual(keywordNode('from:ada OR -x', true), { kind: 'text', tokens: ['from', 'ada', 'or', 'x'], phrase: true, raw: '"from:ada OR -x"' });
  assert.deepEqual(keywordNode('🎉', false), { kind: 'symbol', value: '🎉', raw: '🎉' });
  assert.throws(() => keywordNode('  ', true), QueryError);
});

test('keyword criteria as queries: BROAD_KEYWORD any word (OR), UNORDERED_KEYWORD every word (AND), PHRASE_KEYWORD and EXACT_KEYWORD one phrase', () => {
  const word = (w: string) => ({ kind: 'text', tokens: [w], phrase: false, raw: w });
  assert.deepEqual(keywordQuery('BROAD_KEYWORD', 'red  shoes'), { kind: 'or', children: [word('red'), word('shoes')] });
  assert.deepEqual(keywordQuery('UNORDERED_KEYWORD', 'red shoes'), { kind: 'and', children: [word('red'), word('shoes')] });
  assert.deepEqual(keywordQuery('BROAD_KEYWORD', 'shoes'), word('shoes'));
  assert.deepEqual(keywordQuery('PHRASE_KEYWORD', 'Red Shoes'), { kind: 'text', tokens: ['red', 'shoes'], phrase: true, raw: '"Red Shoes"' });
  assert.deepEqual(keywordQuery('EXACT_KEYWORD', 'red shoes'), { kind: 'text', tokens: ['red', 'shoes'], phrase: true, raw: '"red shoes"' });
  assert.equal(keywordQuery('BROAD_KEYWORD', '   '), undefined);
  assert.equal(keywordQuery('PHRASE_KEYWORD', '   '), undefined);
});
