import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectFieldsJson, type ResourceDeclaration } from '../../src/http/fields.js';

interface Row {
  id: string;
}
interface View {
  viewerId?: string;
  now: Date;
}

/** A resource with fields that depend on the view: who looks, and when. */
const declaration: ResourceDeclaration<Row, View> = {
  resource: 'post',
  fieldsParam: 'post.fields',
  defaults: ['id'],
  fields: {
    id: (r) => r.id,
    seen_by: (_r, view) => view.viewerId ?? null,
    at: (_r, view) => view.now.toISOString(),
  },
};

test('a view-dependent field cannot be served stale: the same row object rendered for another viewer, or later, shows that viewer and that time', () => {
  const row = { id: '1' };
  const selected = new Set(['seen_by', 'at']);
  const now = new Date('2026-11-28T00:00:00.000Z');
  const asAda = selectFieldsJson(declaration, row, selected, { viewerId: 'ada', now });
  const asBruno = selectFieldsJson(declaration, row, selected, { viewerId: 'bruno', now });
  assert.deepEqual(JSON.parse(asAda.text), { id: '1', seen_by: 'ada', at: now.toISOString() });
  assert.deepEqual(JSON.parse(asBruno.text), { id: '1', seen_by: 'bruno', at: now.toISOString() }, 'not the text kept for ada');
  const later = new Date(now.getTime() + 1);
  assert.deepEqual(JSON.parse(selectFieldsJson(declaration, row, selected, { viewerId: 'bruno', now: later }).text), { id: '1', seen_by: 'bruno', at: later.toISOString() });
});
