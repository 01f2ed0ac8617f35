import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppRow, UserRow } from '../auth/store.js';
import type { PlatformContext } from '../platform/context.js';
import { ownedApp } from './console.js';
import { PageError } from './respond.js';

/** Who may see a console page: the signed-in person, and only the apps they created. */

/** The signed-in person, or a redirect to the sign-in page that comes back here. */
export function signedIn(request: FastifyRequest, reply: FastifyReply): UserRow | undefined {
  if (request.web) return request.web.user;
  const back = request.method === 'GET' ? request.url : '/developer';
  reply.redirect(`/login?next=${encodeURIComponent(back)}`, 303);
  return undefined;
}

/** The app of the route's :id when the person owns it; 404 for any other (no hint that it exists). */
export async function owned(ctx: PlatformContext, request: FastifyRequest, user: UserRow): Promise<AppRow> {
  const found = await ownedApp(ctx, user, (request.params as { id: string }).id);
  if (!found) throw new PageError(404, 'App not found', 'You have no app with this id. Apps are only shown to the account that created them.');
  return found;
}
