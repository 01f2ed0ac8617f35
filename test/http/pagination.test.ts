import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePageToken, encodePageToken, page, parseMaxResults } from '../../src/http/pagination.js';
import { ProblemError } from '../../src/http/problems.js';


test('max_results outside the endpoint range is an invalid-request naming max_results, with the public platform message', () => {
  const range = { min: 5, max: 100, default: 10 };
  assert.equal(parseMaxResults(undefined, range), 10);
  assert.equal(parseMaxResults('100', range), 100);
  for (const bad of ['0', '101', 'ten', '-5', '7.5']) {
    assert.throws(() => parseMaxResults(bad, range), (err: ProblemError) => {
      assert.deepEqual(err.problem.errors, [{ message: `The \`max_results\` query parameter value [${bad}] is not between 5 and 100`, parameters: { max_results: [bad] } }]);
      return true;
    });
  }
});

test('pagination tokens round-trip; a token Plaza did not make is an invalid-request naming pagination_token', () => {
  assert.equal(decodePageToken(encodePageToken('2124680862051471361')), '2124680862051471361');
  assert.equal(decodePageToken(undefined), undefined);
  assert.throws(() => decodePageToken('garbage'), (err: ProblemError) => 'pagination_token' in (err.problem.errors as any)[0].parameters);
});

test('a page has result_count, newest_id, oldest_id, and next_token only when more rows exist', () => {
  const rows = ['9', '8', '7'];
  const first = page(rows, 2, (r) => r, { ids: (r) => r });
  assert.deepEqual(first.items, ['9', '8']);
  assert.equal(first.meta.result_count, 2);
  assert.equal(first.meta.newest_id, '9');
  assert.equal(first.meta.oldest_id, '8');
  assert.equal(decodePageToken(first.meta.next_token), '8');
  const last = page(['7'], 2, (r) => r, { ids: (r) => r });
  assert.equal(last.meta.next_token, undefined);
  assert.deepEqual(page([], 2, (r: string) => r, { ids: (r) => r }).meta, { result_count: 0 });
});
