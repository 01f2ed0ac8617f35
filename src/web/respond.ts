import type { FastifyReply } from 'fastify';
import { isHttps } from '../auth/flows/https.js';
import { html, type Html } from './html.js';
import { page } from './layout.js';

/** A page that could not be shown: its status, a title and what the person can do about it. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
    this.name = 'PageError';
  }
}

export function sendHtml(reply: FastifyReply, status: number, body: Html): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body.value);
}

/** The CSRF token for this page's forms (sets the CSRF secret cookie on a first visit). */
export function csrfToken(reply: FastifyReply): string {
  return reply.generateCsrf({ secure: isHttps(reply.request) });
}

export function errorPage(reply: FastifyReply, error: PageError): FastifyReply {
  return sendHtml(
    reply,
    error.status,
    page({ title: error.title, user: reply.request.web?.user, body: html`<p>${error.message}</p>` }),
  );
}

/** Only local paths may follow a sign-in: never another site (no open redirect). */
export function safeNext(value: string | undefined, fallback = '/developer'): string {
  if (!value || !/^\/(?![/\\])[^\s\\]*$/.test(value)) return fallback;
  return value;
}

export function isTrue(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}
