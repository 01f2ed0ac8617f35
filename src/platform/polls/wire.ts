import type { ResourceDeclaration } from '../../http/fields.js';
import { fromJson } from '../../store/store.js';
import type { PollOption, PollTable } from '../../store/schema-posts.js';
import type { View } from '../view.js';
import type { Static } from '@sinclair/typebox';
import type { PollSchema } from '../schemas.js';

export type PollRow = PollTable;

/**
 * The poll object (shared/reference S167 Poll): defaults id and options, as on the public
 * platform. voting_status follows the injected clock: open until end_datetime, then closed.
 */
export const pollDeclaration: ResourceDeclaration<PollRow, View, Static<typeof PollSchema>> = {
  resource: 'poll',
  fieldsParam: 'poll.fields',
  defaults: ['id', 'options'],
  fields: {
    id: (p) => p.id,
    options: (p) => fromJson<PollOption[]>(p.options) ?? [],
    duration_minutes: (p) => p.duration_minutes,
    end_datetime: (p) => p.end_datetime,
    voting_status: (p, view) => (view.now.toISOString() < p.end_datetime ? 'open' : 'closed'),
  },
};
