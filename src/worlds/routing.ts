import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Worlds } from './registry.js';
import type { WorldScope } from './scope.js';
import { worldNamedBy } from './tags.js';
import type { World } from './world.js';

/** What a listener needs to serve each request in its world. */
export interface WorldRouting {
  scope: WorldScope;
  worlds: Worlds;
}

const WORLD = Symbol('world');
type Tagged = FastifyRequest['raw'] & { [WORLD]?: World };

/** The admin interface's paths that name a world: /admin/worlds/<id>/... */
const ADMIN_WORLD_PATH = /^\/admin\/worlds\/(w[0-9a-z]{10})(?:[/?]|$)/;
/** A world's files fetched without credentials: /media/<world id>~<media key>.<ext>, and analytics job results (/12/stats/jobs/files/<world id>~<job id>.json.gz). */
const MEDIA_PATH = /^\/(?:media|12\/stats\/jobs\/files)\/(w[0-9a-z]{10})(?:~|%7[Ee])/;
/** Query and body fields that carry a credential by themselves (the browser flows, /oauth2/token, /oauth2/revoke). */
const CREDENTIAL_FIELDS = ['client_id', 'oauth_token', 'refresh_token', 'code', 'token'] as const;

/**
 * Serves each request in the world its credentials name (src/worlds/tags.ts): read from the
 * headers, the query and the path when the request arrives, from the body once it is read. The
 * first hooks of the listener, so every other hook and the handler run in that world. A credential
 * of a world that is gone names no world: the request is the default world's, where that
 * credential is unknown (401).
 */
export function installWorldRouting(app: FastifyInstance, routing: WorldRouting): void {
  const enter = (request: FastifyRequest, id: string, done: (err?: Error) => void) => {
    routing.worlds.get(id).then((world) => {
      if (!world) return done();
      (request.raw as Tagged)[WORLD] = world;
      routing.scope.run(world, () => done());
    }, done);
  };
  app.addHook('onRequest', (request, _reply, done) => {
    const id = worldOfHead(request);
    if (id) enter(request, id, done);
    else done();
  });
  // A body is read outside the request's world (its bytes arrive on the connection's events): entered again.
  app.addHook('preValidation', (request, _reply, done) => {
    const world = (request.raw as Tagged)[WORLD];
    if (world) return routing.scope.run(world, () => done());
    const id = fieldsWorld(request.body);
    if (id) enter(request, id, done);
    else done();
  });
}

function worldOfHead(request: FastifyRequest): string | undefined {
  const path = ADMIN_WORLD_PATH.exec(request.url);
  if (path) return path[1];
  // Media bytes and analytics files are fetched without credentials: their file name names the world (mediaFileUrl, statsFileUrl).
  const media = MEDIA_PATH.exec(request.url);
  if (media) return media[1];
  const authorization = request.headers.authorization;
  if (authorization) {
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    const named = worldNamedBy(basic ? Buffer.from(basic[1], 'base64').toString('utf8') : authorization);
    if (named) return named;
  }
  return fieldsWorld(request.query) ?? worldNamedBy(request.headers.cookie);
}

function fieldsWorld(fields: unknown): string | undefined {
  if (!fields || typeof fields !== 'object') return undefined;
  for (const name of CREDENTIAL_FIELDS) {
    const value = (fields as Record<string, unknown>)[name];
    if (typeof value === 'string') {
      const named = worldNamedBy(value);
      if (named) return named;
    }
  }
  return undefined;
}
