import { worldCredential } from '../worlds/tags.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isHttps } from '../auth/flows/https.js';
import { findUserById, type UserRow } from '../auth/store.js';
import { hashToken } from '../auth/tokens.js';
import type { PlatformContext } from '../platform/context.js';
import { secretToken } from '../store/ids.js';
import type { WebSessionTable } from '../store/schema-oauth.js';

/**
 * Sign-in sessions of the pages: the cookie holds a random token (HttpOnly, SameSite=Lax, Secure
 * and `__Host-` prefixed over HTTPS), the store only its SHA-256 hash. Signing in always starts a
 * new session (no fixation); signing out deletes it. Sessions end after 14 days by the injected clock.
 */

export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;

export interface WebSession {
  session: WebSessionTable;
  user: UserRow;
}

/** Over HTTPS the cookie is `__Host-` prefixed: Secure, host-only, path / (no cookie tossing from subdomains). */
export function sessionCookieName(request: FastifyRequest): string {
  return isHttps(request) ? '__Host-plaza_session' : 'plaza_session';
}

export function cookieOptions(request: FastifyRequest) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: isHttps(request) };
}

export async function loadSession(ctx: PlatformContext, request: FastifyRequest): Promise<WebSession | undefined> {
  const token = request.cookies[sessionCookieName(request)];
  if (!token) return undefined;
  const session = await ctx.store.db.selectFrom('web_sessions').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();
  if (!session || session.expires_at <= ctx.clock.now().toISOString()) return undefined;
  const user = await findUserById(ctx.store.db, session.user_id);
  return user ? { session, user } : undefined;
}

/** Signs a person in: ends the browser's previous session and starts a new one. */
export async function startSession(ctx: PlatformContext, request: FastifyRequest, reply: FastifyReply, user: UserRow): Promise<WebSession> {
  await endSession(ctx, request, reply);
  const now = ctx.clock.now();
  const token = worldCredential(ctx, secretToken(32));
  const session: WebSessionTable = {
    id: ctx.ids.next(),
    token_hash: hashToken(token),
    user_id: user.id,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
  };
  await ctx.store.db.deleteFrom('web_sessions').where('expires_at', '<=', now.toISOString()).execute();
  await ctx.store.db.insertInto('web_sessions').values(session).execute();
  reply.setCookie(sessionCookieName(request), token, { ...cookieOptions(request), maxAge: SESSION_TTL_MS / 1000 });
  request.web = { session, user };
  return request.web;
}

export async function endSession(ctx: PlatformContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const name = sessionCookieName(request);
  const token = request.cookies[name];
  if (token) {
    await ctx.store.db.deleteFrom('web_sessions').where('token_hash', '=', hashToken(token)).execute();
    reply.clearCookie(name, cookieOptions(request));
  }
  request.web = undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person of a page request. */
    web?: WebSession;
  }
}
