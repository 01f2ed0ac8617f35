import type { TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PlatformContext } from '../../platform/context.js';
import type { Listener } from '../../http/server.js';
import type { AdsEnvironmentName } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';
import { findAccountAccess } from '../accounts/store.js';
import { WRITE_PERMISSIONS, type AccountAccess, type AccountRow, type AdsActor } from '../actor.js';
import { authenticateAds, type AdsCaller } from './auth.js';
import { adsBodyInPostNames } from './dialect.js';
import { AdsError } from './errors.js';
import { checkTotalCountExclusive, type Page } from './list.js';
import { ADS_ID, parseParams, type ParamSpec, type Parsed } from './params.js';
import {
  APP_GLOBAL_QUOTA,
  RATE_LIMITS,
  TOTAL_COUNT_LIMIT,
  rateHeaders,
  tooManyRequests,
  type AdsRateLimiter,
  type RateCategory,
} from './rate-limit.js';

/**
 * The one way an ads route is declared. Every route gets, in this order: OAuth 1.0a user
 * context (401), the sandbox-only check (405 on production), the account-access check for
 * `:account_id` (403), rate limits and their headers (429), its declared parameters from the
 * query string, form or JSON body (400), then its handler (writes in one transaction), whose
 * result is wrapped in the envelope `{request:{params}, ...}`.
 */
export type AdsMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface AdsCall<P> {
  actor: AdsActor;
  caller: AdsCaller;
  /** The account of `:account_id` and the caller's permissions on it. */
  access: AccountAccess;
  account: AccountRow;
  path: Record<string, string>;
  params: P;
  /** The transaction of a write, the store for a read. */
  db: DbOrTx;
  /** The parsed body, for endpoints that take a JSON array. */
  body: unknown;
  contentType: string;
  /** Adds `x-api-warn` (deprecated parameters, shared/reference/ads.md §2). */
  warn(message: string): void;
  /** Adds a parameter parsed by the handler itself (a JSON array body) to `request.params`. */
  echo(name: string, value: unknown): void;
  /** Where this listener is reached from the client (its public URL when configured), for URLs an answer names. */
  origin: string;
}

/** What a handler answers; the envelope adds `request`. */
export interface AdsBody {
  next_cursor?: string | null;
  data: unknown;
  total_count?: number;
  /** Analytics answers say what `data` holds (`stats`, `active_entities`) and how long each series is. */
  data_type?: string;
  time_series_length?: number;
}

export interface AdsRouteDef<S extends ParamSpec> {
  method: AdsMethod;
  /** The path after the version, e.g. `/accounts/:account_id/campaigns`. */
  url: string;
  /** The version segment; 12 for almost everything (spec 001 "Versioning"). */
  version?: number;
  params: S;
  rate: RateCategory;
  /** Sandbox-only operations (POST accounts, funding instruments...): 405 on production. */
  sandboxOnly?: boolean;
  /** Lets a deleted account through the access check (GET and DELETE of the account itself). */
  deletedAccount?: boolean;
  /** A body limit above the listener's, checked before the body is read (batch uploads). */
  bodyLimit?: number;
  /** The permissions on the account that may call this write; WRITE_PERMISSIONS when absent. */
  writePermissions?: readonly string[];
  /** What `data` holds in the answer: an entity's declaration (src/ads/http/entity-schema.ts), or an array of them for a list. */
  response?: TSchema;
  handler(call: AdsCall<Parsed<S>>): Promise<AdsBody>;
}

export const one = (data: unknown): AdsBody => ({ data });

export function page<Row>(p: Page<Row>, convert: (row: Row) => unknown): AdsBody {
  return { next_cursor: p.next_cursor, data: p.rows.map(convert), ...(p.total_count !== undefined ? { total_count: p.total_count } : {}) };
}

/** A path id other than the account's: ids of an impossible shape are simply not found. */
export function pathId(call: { path: Record<string, string> }, name: string): string | undefined {
  const id = call.path[name];
  return id !== undefined && ADS_ID.test(id) ? id : undefined;
}

/** A declared ads route as the route table lists it: its method, full path and parameter names. */
export interface AdsRouteEntry {
  method: AdsMethod;
  url: string;
  params: string[];
  /** The declarations themselves (what each accepts: src/ads/http/openapi.ts describes them). */
  spec: ParamSpec;
  sandboxOnly: boolean;
  rate: RateCategory;
  response?: TSchema;
}

const routeTables = new WeakMap<object, AdsRouteEntry[]>();

/**
 * The routes declared on an ads listener, with their parameters: what GET /12/openapi.json
 * describes and the fuzz test walks.
 */
export function adsRouteTable(app: object): readonly AdsRouteEntry[] {
  return routeTables.get(app) ?? [];
}

export class AdsRoutes {
  constructor(
    readonly app: Listener,
    readonly ctx: PlatformContext,
    readonly env: AdsEnvironmentName,
    readonly limiter: AdsRateLimiter,
  ) {}

  route<S extends ParamSpec>(def: AdsRouteDef<S>): void {
    const url = `/${def.version ?? 12}${def.url}`;
    let table = routeTables.get(this.app);
    if (!table) routeTables.set(this.app, (table = []));
    table.push({ method: def.method, url, params: Object.keys(def.params), spec: def.params, sandboxOnly: def.sandboxOnly ?? false, rate: def.rate, response: def.response });
    this.app.route({
      method: def.method,
      url,
      ...(def.bodyLimit !== undefined ? { bodyLimit: def.bodyLimit } : {}),
      handler: async (request, reply) => {
        const body = await this.handle(def, `${def.method} ${url}`, request, reply);
        return reply.code(200).type('application/json; charset=utf-8').serializer(JSON.stringify).send(body);
      },
    });
  }

  private async handle<S extends ParamSpec>(def: AdsRouteDef<S>, endpoint: string, request: FastifyRequest, reply: FastifyReply) {
    const ctx = this.ctx;
    const path = { ...((request.params as Record<string, string> | undefined) ?? {}) };
    const echo: Record<string, unknown> = { ...path };
    request.adsEcho = echo;

    const caller = await authenticateAds(ctx, request);
    adsBodyInPostNames(request, caller.app.dialect);
    reply.header('x-access-level', caller.accessLevel);
    const write = def.method !== 'GET';
    if (write && caller.accessLevel === 'read') {
      throw AdsError.forbidden('READONLY_CLIENT_APPLICATION', 'This access token is read-only; changes need a read-write token');
    }
    if (def.sandboxOnly && this.env === 'production') {
      throw new AdsError(405, [{ code: 'METHOD_NOT_ALLOWED', message: `${def.method} ${def.url.replace(/^\//, '')} is available only on the sandbox listener` }], false);
    }

    let access: AccountAccess | undefined;
    if (path.account_id !== undefined) {
      const id = path.account_id;
      access = ADS_ID.test(id) ? await findAccountAccess(ctx.store.db, this.env, caller.user.id, id) : undefined;
      if (!access || (access.account.deleted === 1 && !def.deletedAccount)) {
        throw AdsError.forbidden('ACCOUNT_NOT_FOUND', `Account ${id} was not found`);
      }
      const allowed = def.writePermissions ?? WRITE_PERMISSIONS;
      if (write && !access.permissions.some((p) => allowed.includes(p))) {
        throw AdsError.forbidden('ACTION_NOT_ALLOWED', `User ${caller.user.id} may not change account ${id}; that needs ${allowed.join(' or ')} permission`);
      }
    }

    this.limit(def.rate, endpoint, caller, access, reply);
    const params = parseParams(request, def.params, echo);
    const listParams = params as { cursor?: string; with_total_count?: boolean };
    checkTotalCountExclusive(listParams);
    if (listParams.with_total_count) {
      const state = this.limiter.take(`total:${caller.user.id}`, TOTAL_COUNT_LIMIT);
      if (state.exceeded) {
        throw tooManyRequests('Requests with with_total_count=true are limited to 200 per 15 minutes', rateHeaders('x-rate-limit', state));
      }
    }

    const actor: AdsActor = { ctx, env: this.env, userId: caller.user.id, appTier: caller.app.tier };
    const run = (db: DbOrTx) =>
      def.handler({
        actor,
        caller,
        get access(): AccountAccess {
          if (!access) throw new Error(`route ${endpoint} has no :account_id`);
          return access;
        },
        get account(): AccountRow {
          if (!access) throw new Error(`route ${endpoint} has no :account_id`);
          return access.account;
        },
        path,
        params,
        db,
        body: request.body,
        contentType: String(request.headers['content-type'] ?? ''),
        warn: (message) => void reply.header('x-api-warn', message),
        echo: (name, value) => {
          echo[name] = value;
        },
        origin: this.origin(request),
      });
    const result = write ? await ctx.store.db.transaction().execute((tx) => run(tx)) : await run(ctx.store.db);
    return { request: { params: echo }, ...result };
  }

  private origin(request: FastifyRequest): string {
    const configured = this.env === 'production' ? this.ctx.config.publicUrls.ads : this.ctx.config.publicUrls.adsSandbox;
    return configured ?? `${request.protocol}://${request.host}`;
  }

  private limit(category: RateCategory, endpoint: string, caller: AdsCaller, access: AccountAccess | undefined, reply: FastifyReply): void {
    const userId = caller.user.id;
    const headers: Record<string, string> = {};
    let exceeded = false;
    const accountLevel = (category === 'entity-read' || category === 'account-read') && access;
    if (accountLevel) {
      const account = this.limiter.take(`${endpoint}|account:${access.account.id}`, RATE_LIMITS[category]);
      const app = this.limiter.take(`${endpoint}|app:${caller.app.id}`, APP_GLOBAL_QUOTA);
      Object.assign(headers, rateHeaders('x-account-rate-limit', account), rateHeaders('x-rate-limit', app));
      exceeded = account.exceeded || app.exceeded;
    } else {
      const key =
        category === 'write'
          ? `write|user:${userId}`
          : category === 'targeting-read'
            ? `targeting|user:${userId}`
            : category === 'audience-users' && access
              ? `audience-users|account:${access.account.id}`
              : `${endpoint}|user:${userId}`;
      const state = this.limiter.take(key, RATE_LIMITS[category]);
      Object.assign(headers, rateHeaders('x-rate-limit', state));
      exceeded = state.exceeded;
    }
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    if (exceeded) throw tooManyRequests('Rate limit exceeded', headers);
  }
}
