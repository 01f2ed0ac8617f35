import type { ResourceDeclaration } from '../../http/fields.js';
import type { ListTable } from '../../store/schema-graph.js';
import { expansionsOf, type ExpansionDeclarations } from '../expansions.js';
import type { View } from '../view.js';
import type { Static } from '@sinclair/typebox';
import type { ListSchema } from '../schemas.js';

export type ListRow = ListTable;

/** The list object: defaults id and name, as on the public platform. */
export const listDeclaration: ResourceDeclaration<ListRow, View, Static<typeof ListSchema>> = {
  resource: 'list',
  fieldsParam: 'list.fields',
  defaults: ['id', 'name'],
  fields: {
    id: (l) => l.id,
    name: (l) => l.name,
    created_at: (l) => l.created_at,
    description: (l) => l.description,
    follower_count: (l) => l.follower_count,
    member_count: (l) => l.member_count,
    owner_id: (l) => l.owner_id,
    private: (l) => l.private === 1,
  },
};

/** The expansions a list response accepts. */
export const listExpansions: ExpansionDeclarations<ListRow> = expansionsOf(listDeclaration, {
  owner_id: { target: 'users', keys: (l) => [l.owner_id] },
});
