import { statsRoutes } from './stats/routes.js';
import { installWorldRouting, type WorldRouting } from '../worlds/routing.js';
import type { PlatformContext } from '../platform/context.js';
import type { Metrics } from '../http/metrics.js';
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../http/nul.js';
import { createListener, type Listener } from '../http/server.js';
import { accountMediaRoutes } from './account-media/routes.js';
import { accountRoutes } from './accounts/routes.js';
import { audienceRoutes } from './audiences/routes.js';
import { catalogRoutes } from './catalogs/routes.js';
import { doNotReachRoutes } from './do-not-reach/routes.js';
import { keywordInsightRoutes } from './keyword-insights/routes.js';
import { campaignRoutes } from './campaigns/routes.js';
import { cardRoutes } from './cards/routes.js';
import { categoryRoutes } from './categories/routes.js';
import { fundingInstrumentRoutes } from './funding-instruments/routes.js';
import { historyRoutes } from './history/routes.js';
import { installAdsTweetDialect, rewriteAdsUrl } from './http/dialect.js';
import { installIdsAsNumbers } from './http/json-numbers.js';
import { serveAdsOpenApi } from './http/openapi.js';
import { AdsError, installAdsErrors } from './http/errors.js';
import { AdsRateLimiter } from './http/rate-limit.js';
import { AdsRoutes } from './http/route.js';
import { lineItemRoutes } from './line-items/routes.js';
import { mediaCreativeRoutes } from './media-creatives/routes.js';
import { mediaLibraryRoutes } from './media-library/routes.js';
import { adsPostRoutes } from './posts/routes.js';
import { startScheduledPublisher } from './posts/scheduled.js';
import { promotedRoutes } from './promoted/routes.js';
import { targetingRoutes } from './targeting/routes.js';

export type AdsEnvironment = 'production' | 'sandbox';

/** The version every response names (shared/reference/ads.md §2). */
export const ADS_API_VERSION = '12';

/**
 * The advertising interface v12 listener, once for production and once for the sandbox: the
 * same routes over the same store, each seeing only its environment's accounts.
 */
export async function buildAds(ctx: PlatformContext, metrics: Metrics, environment: AdsEnvironment, routing?: WorldRouting): Promise<Listener> {
  const app = await createListener(ctx.config, metrics, environment === 'production' ? 'ads' : 'ads-sandbox', { rewriteUrl: rewriteAdsUrl });
  if (routing) installWorldRouting(app, routing);
  installAdsErrors(app);
  installAdsTweetDialect(app);
  installIdsAsNumbers(app);
  acceptJsonBodies(app);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-current-api-version', ADS_API_VERSION);
  });
  const ads = new AdsRoutes(app, ctx, environment, new AdsRateLimiter(ctx.clock));
  accountRoutes(ads);
  fundingInstrumentRoutes(ads);
  campaignRoutes(ads);
  lineItemRoutes(ads);
  targetingRoutes(ads);
  categoryRoutes(ads);
  promotedRoutes(ads);
  historyRoutes(ads);
  mediaLibraryRoutes(ads);
  accountMediaRoutes(ads);
  mediaCreativeRoutes(ads);
  cardRoutes(ads);
  adsPostRoutes(ads);
  // One publisher of scheduled posts per process (the store is shared by both environments).
  if (environment === 'production') {
    const publisher = startScheduledPublisher(ctx);
    app.addHook('onClose', () => publisher.close());
  }
  audienceRoutes(ads);
  doNotReachRoutes(ads);
  catalogRoutes(ads);
  keywordInsightRoutes(ads);
  statsRoutes(ads);
  serveAdsOpenApi(app, environment, ADS_API_VERSION);
  return app;
}

/**
 * JSON bodies: an empty one is no body (clients that send their parameters in the query string
 * sometimes still say application/json), and a broken one is an ads error naming the body.
 */
function acceptJsonBodies(app: Listener): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(AdsError.invalidParameter('body', 'The body is not valid JSON'), undefined);
    }
    if (nestedDeeperThan(parsed, MAX_BODY_DEPTH)) return done(AdsError.invalidParameter('body', `The body nests more than ${MAX_BODY_DEPTH} levels deep`), undefined);
    done(null, parsed);
  });
}
