import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonBody, jsonText, RawJson } from '../../src/http/json-body.js';

test('items given as JSON text are placed in a body as they are: as text, and past the small-body size as bytes, multi-byte characters included', () => {
  // Past the small-body size, items are written into the body as bytes.
  const items = Array.from({ length: 200 }, (_, i) =>
    i % 3 === 0 ? RawJson.of(JSON.stringify({ id: String(i), text: `ünïcode ${i}`, media_metadata: [{ media_key: `3_${i}` }] })) : RawJson.of(JSON.stringify({ id: String(i) })),
  );
  const parts = { data: items, includes: { users: [RawJson.of('{"id":"9","name":"Zoë"}')] }, meta: { result_count: items.length } };
  const body = jsonBody(parts);
  assert.ok(Buffer.isBuffer(body) && body.length > 4096);
  const parsed = JSON.parse(body.toString('utf8'));
  assert.deepEqual(parsed, JSON.parse(jsonText(parts)));
  assert.deepEqual(parsed.data[3], { id: '3', text: 'ünïcode 3', media_metadata: [{ media_key: '3_3' }] });
  assert.deepEqual(parsed.data[4], { id: '4' });
  assert.equal(body.length, Buffer.byteLength(jsonText(parts)));
  // A small body stays one text, the same as jsonText's.
  const small = { data: items.slice(0, 3), meta: { result_count: 3 } };
  assert.equal(jsonBody(small), jsonText(small));
});
