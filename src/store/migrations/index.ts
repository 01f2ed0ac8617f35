import type { Kysely } from 'kysely';
import type { StoreDialect } from '../store.js';
import * as m0001 from './0001-foundation.js';
import * as m0002 from './0002-ads.js';
import * as m0003 from './0003-oauth-flows.js';
import * as m0004 from './0004-posts-media.js';
import * as m0005 from './0005-graph.js';
import * as m0006 from './0006-events.js';
import * as m0007 from './0007-activity.js';
import * as m0008 from './0008-search.js';
import * as m0009 from './0009-stream-rules.js';
import * as m0010 from './0010-stream-connections.js';
import * as m0011 from './0011-ads-media.js';
import * as m0012 from './0012-ads-audiences.js';
import * as m0013 from './0013-user-search.js';
import * as m0016 from './0016-admin-faults.js';
import * as m0017 from './0017-news-notes-usage.js';
import * as m0022 from './0022-media-metadata-dm-blocks.js';
import * as m0023 from './0023-chats.js';
import * as m0024 from './0024-broadcasts-trends.js';
import * as m0025 from './0025-articles-analytics.js';
import * as m0026 from './0026-compliance-folders-affiliates.js';
import * as m0027 from './0027-media-subtitles.js';
import * as m0028 from './0028-post-term-hours.js';
import * as m0029 from './0029-audience-identifiers-binary.js';
import * as m0030 from './0030-posts-live-by-author.js';
import * as m0031 from './0031-broadcast-announcements.js';
import * as m0032 from './0032-media-source-posts.js';
import * as m0033 from './0033-partial-reference-indexes.js';
import * as m0034 from './0034-app-dialect.js';
import * as m0035 from './0035-post-create-members.js';
import * as m0036 from './0036-post-reads.js';
import * as m0037 from './0037-worker-leases.js';
import * as m0038 from './0038-worlds.js';
import * as m0039 from './0039-server-secret.js';
import * as m0040 from './0040-media-blobs.js';
import * as m0041 from './0041-event-log-without-lock.js';
import * as m0042 from './0042-ads-delivery.js';
import * as m0043 from './0043-event-sequencer-function.js';
import * as m0044 from './0044-upload-expiry.js';
import * as m0045 from './0045-posts-same-text.js';
import * as m0046 from './0046-event-log-index-scans.js';

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
  '0006-events': m0006,
  '0007-activity': m0007,
  '0008-search': m0008,
  '0009-stream-rules': m0009,
  '0010-stream-connections': m0010,
  '0011-ads-media': m0011,
  '0012-ads-audiences': m0012,
  '0013-user-search': m0013,
  '0016-admin-faults': m0016,
  '0017-news-notes-usage': m0017,
  '0022-media-metadata-dm-blocks': m0022,
  '0023-chats': m0023,
  '0024-broadcasts-trends': m0024,
  '0025-articles-analytics': m0025,
  '0026-compliance-folders-affiliates': m0026,
  '0027-media-subtitles': m0027,
  '0028-post-term-hours': m0028,
  '0029-audience-identifiers-binary': m0029,
  '0030-posts-live-by-author': m0030,
  '0031-broadcast-announcements': m0031,
  '0032-media-source-posts': m0032,
  '0033-partial-reference-indexes': m0033,
  '0034-app-dialect': m0034,
  '0035-post-create-members': m0035,
  '0036-post-reads': m0036,
  '0037-worker-leases': m0037,
  '0038-worlds': m0038,
  '0039-server-secret': m0039,
  '0040-media-blobs': m0040,
  '0041-event-log-without-lock': m0041,
  '0042-ads-delivery': m0042,
  '0043-event-sequencer-function': m0043,
  '0044-upload-expiry': m0044,
  '0045-posts-same-text': m0045,
  '0046-event-log-index-scans': m0046,
};
