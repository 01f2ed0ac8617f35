import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sentToPublicAdsHost } from '../../http/dialect/hosts.js';
import { bodyInPostNames, inTweetDialect, jsonPayloadIn, tweetUrlRewriter } from '../../http/dialect/plugin.js';
import { adsTweetNames } from './names.js';

/**
 * The 'tweet' dialect at the edge of the advertising listeners (issues 34 and 38), declared once
 * in names.ts, on the platform's mechanism (src/http/dialect/plugin.ts). A request is in it when
 * the client is known to speak it (it was sent to one of the public Ads API's host names, or its
 * app's dialect setting is 'tweet') or when it uses the dialect's names (promoted_tweets,
 * tweet_ids...). Its path and query are translated before routing, its body once the caller is
 * known (AdsRoutes calls `adsBodyInPostNames`), and its answer back, `request.params` echo and
 * errors included. Routes, services and wire converters speak only spec 001's names.
 */

/** Fastify's rewriteUrl for the ads listeners. */
export const rewriteAdsUrl = tweetUrlRewriter(sentToPublicAdsHost, adsTweetNames.urlToPost);

/** The request's body in spec 001's names, once the caller's app is known. */
export function adsBodyInPostNames(request: FastifyRequest, appDialect: string): void {
  bodyInPostNames(request, appDialect, adsTweetNames);
}

/** Answers (and errors) of requests in the dialect, in its names. */
export function installAdsTweetDialect(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    done(null, inTweetDialect(request) ? jsonPayloadIn(reply, payload, adsTweetNames.jsonTextToTweet) : payload);
  });
}
