import type { StreamRuleRow } from './store.js';

/** A filtered-stream rule on the wire: {id, value, tag} (tag only when the rule has one). */
export interface WireRule {
  id: string;
  value: string;
  tag?: string;
}

export function ruleToWire(row: Pick<StreamRuleRow, 'id' | 'value' | 'tag'>): WireRule {
  return row.tag === null ? { id: row.id, value: row.value } : { id: row.id, value: row.value, tag: row.tag };
}
