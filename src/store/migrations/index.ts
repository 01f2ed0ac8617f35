import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';
import * as m0001 from './0001-foundation.js';
import * as m0002 from './0002-ads.js';
import * as m0003 from './0003-oauth-flows.js';
import * as m0004 from './0004-posts-media.js';
import * as m0005 from './0005-graph.js';

export interface PlazaMigration {
  up(db: Kysely<any>, dialect: StoreDialect): Promise<void>;
}

/** Numbered migrations, applied in name order on both engines. */
export const migrations: Record<string, PlazaMigration> = {
  '0001-foundation': m0001,
  '0002-ads': m0002,
  '0003-oauth-flows': m0003,
  '0004-posts-media': m0004,
  '0005-graph': m0005,
};
