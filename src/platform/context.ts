import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/authenticate.js';
import type { CoreContext } from '../context.js';
import type { Entities } from './entities.js';
import type { MediaBlobs } from './media/blobs.js';
import type { StreamRuleBook } from './stream-rules/book.js';
import type { StreamEngine } from './streams/engine.js';

/**
 * The platform context: the core context (src/context.ts) and what the platform interface's
 * resources share in one process. Handed to its routes and services, and to the layers above it
 * (the advertising interface, the admin interface, the web pages, the event workers).
 */
export interface PlatformContext extends CoreContext {
  /** Readers of posts, users and media, and what timelines and card URIs keep across requests (src/platform/entities.ts). */
  entities: Entities;
  /** The persistent streams of this process, on one reader of the event log (src/platform/streams/engine.ts). */
  streams: StreamEngine;
  /** Every app's filtered-stream rules, indexed once for the process (src/platform/stream-rules/book.ts). */
  streamRules: StreamRuleBook;
  /** Where the world's media bytes live: a bucket, the store or the media folder (src/platform/media/blobs.ts). */
  media: MediaBlobs;
  /** The admin interface's injected faults, when it is on (kept by src/admin/faults.ts). */
  faults?: InjectedFaults;
}

/** A fault as the platform lists it (the admin interface's wire object has these fields and more). */
export interface FaultListing {
  id: string;
  kind: string;
  app_id?: string;
  endpoint?: string;
  remaining?: number;
}

/** The injected faults as the platform consults them: the admin interface sets them, the platform meets them. */
export interface InjectedFaults {
  /** Answers the request with the fault waiting for this caller and route, if one is (undefined when none is). */
  strike(caller: Caller, request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined;
  /** The status a webhook's next delivery fails with, when a fault says it should. */
  webhookFailure(webhookId: string): Promise<number | undefined>;
  list(): Promise<FaultListing[]>;
}
