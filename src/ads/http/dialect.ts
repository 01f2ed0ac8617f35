import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sentToPublicAdsHost } from '../../http/dialect/hosts.js';
import { isJsonBody, markJsonBody } from '../../http/lazy-schemas.js';
import { jsonPayloadIn } from '../../http/dialect/plugin.js';
import { adsTweetNames } from './names.js';

/**
 * The 'tweet' dialect at the edge of the advertising listeners (issues 34 and 38), declared once
 * in names.ts. A request is in it when the client is known to speak it (it was sent to one of the
 * public Ads API's host names, or its app's dialect setting is 'tweet') or when it uses the
 * dialect's names (promoted_tweets, tweet_ids...). Its path and query are translated before
 * routing, its body once the caller is known (AdsRoutes calls `bodyInPostNames`), and its answer
 * back, `request.params` echo and errors included. Routes, services and wire converters speak
 * only spec 001's names.
 */

const DIALECT = Symbol('plaza.adsTweetDialect');
type Marked = IncomingMessage & { [DIALECT]?: true };

/** Whether the request is answered in the 'tweet' dialect. */
export function adsInTweetDialect(request: FastifyRequest): boolean {
  return (request.raw as Marked)[DIALECT] === true;
}

/**
 * Fastify's rewriteUrl for the ads listeners: the URL routed is in Plaza's names; the URL as sent
 * stays `request.originalUrl`, which is what an OAuth 1.0a signature covers.
 */
export function rewriteAdsUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  if (sentToPublicAdsHost(req)) (req as Marked)[DIALECT] = true;
  const post = adsTweetNames.urlToPost(url);
  if (post === undefined) return url;
  (req as Marked)[DIALECT] = true;
  return post;
}

/**
 * The request's body in Plaza's names, once the caller is known: a 'tweet' app's requests, and
 * any request whose body uses a name of the dialect, are in the dialect from here on.
 */
export function bodyInPostNames(request: FastifyRequest, appDialect: string): void {
  const raw = request.raw as Marked;
  if (appDialect === 'tweet') raw[DIALECT] = true;
  const body = request.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return;
  if (raw[DIALECT] !== true && !adsTweetNames.bodyUsesTweetNames(body)) return;
  raw[DIALECT] = true;
  const renamed = adsTweetNames.bodyToPost(body);
  if (isJsonBody(body)) markJsonBody(renamed);
  request.body = renamed;
}

/** Answers (and errors) of requests in the dialect, in its names. */
export function installAdsTweetDialect(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, adsInTweetDialect(request) ? jsonPayloadIn(reply, payload, adsTweetNames.jsonTextToTweet) : payload);
  });
}
