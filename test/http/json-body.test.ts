import assert from 'node:assert/strict';
import { test } from 'node:test';
import { jsonBody, jsonText, RawJson } from '../../src/http/json-body.js';

test('a kept object joined with members rendered per answer reads as one object, as text, as bytes and inside a large body', () => {
  const kept = RawJson.of(JSON.stringify({ id: '1', text: 'héllo ✓ wörld' }));
  const joined = RawJson.joined(kept, JSON.stringify({ card_uri: 'card://ü1' }));
  const expected = { id: '1', text: 'héllo ✓ wörld', card_uri: 'card://ü1' };
  assert.deepEqual(JSON.parse(joined.text), expected);
  assert.deepEqual(JSON.parse(joined.bytes.toString('utf8')), expected);
  assert.equal(joined.byteLength, Buffer.byteLength(joined.text));
  assert.equal(joined.length, joined.text.length);
  // Nothing rendered: the kept object itself; nothing kept: the rendered members alone.
  assert.equal(RawJson.joined(kept, '{}'), kept);
  assert.deepEqual(JSON.parse(RawJson.joined(RawJson.of('{}'), '{"a":1}').text), { a: 1 });

  // Past the small-body size, items are written into the body as bytes, the joined ones in two parts.
  const items = Array.from({ length: 200 }, (_, i) =>
    i % 3 === 0 ? RawJson.joined(RawJson.of(JSON.stringify({ id: String(i), text: `ünïcode ${i}` })), JSON.stringify({ media_metadata: [{ media_key: `3_${i}` }] })) : RawJson.of(JSON.stringify({ id: String(i) })),
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
