import type { ResourceDeclaration } from '../../http/fields.js';
import type { SpaceTable } from '../../store/schema-graph.js';
import { fromJson } from '../../store/store.js';
import { expansionsOf, type ExpansionDeclarations } from '../expansions.js';
import type { View } from '../view.js';
import type { Static } from '@sinclair/typebox';
import type { SpaceSchema } from '../schemas.js';

export type SpaceRow = SpaceTable;

const ids = (text: string): string[] => fromJson<string[]>(text) ?? [];
const nonEmpty = (items: string[]) => (items.length > 0 ? items : undefined);

/** The space object: defaults id and state, as on the public platform. */
export const spaceDeclaration: ResourceDeclaration<SpaceRow, View, Static<typeof SpaceSchema>> = {
  resource: 'space',
  fieldsParam: 'space.fields',
  defaults: ['id', 'state'],
  fields: {
    id: (s) => s.id,
    state: (s) => s.state,
    created_at: (s) => s.created_at,
    creator_id: (s) => s.creator_id,
    ended_at: (s) => s.ended_at ?? undefined,
    host_ids: (s) => nonEmpty(ids(s.host_ids)),
    invited_user_ids: (s) => nonEmpty(ids(s.invited_user_ids)),
    is_ticketed: (s) => s.is_ticketed === 1,
    lang: (s) => s.lang,
    participant_count: (s) => s.participant_count,
    scheduled_start: (s) => s.scheduled_start ?? undefined,
    speaker_ids: (s) => nonEmpty(ids(s.speaker_ids)),
    started_at: (s) => s.started_at ?? undefined,
    subscriber_count: (s) => s.subscriber_count,
    title: (s) => s.title,
    topic_ids: (s) => nonEmpty(ids(s.topic_ids)),
    updated_at: (s) => s.updated_at,
  },
};

/** Expansions of a space: its users; topics are accepted and return nothing (Plaza keeps no topics). */
export const spaceExpansions: ExpansionDeclarations<SpaceRow> = expansionsOf(spaceDeclaration, {
  creator_id: { target: 'users', keys: (s) => [s.creator_id] },
  host_ids: { target: 'users', keys: (s) => ids(s.host_ids) },
  invited_user_ids: { target: 'users', keys: (s) => ids(s.invited_user_ids) },
  speaker_ids: { target: 'users', keys: (s) => ids(s.speaker_ids) },
  topic_ids: { target: 'places', keys: () => [] },
});

export const hostIdsOf = (s: SpaceRow): string[] => ids(s.host_ids);

export const TOPIC_FIELDS = ['description', 'id', 'name'];
