import { AdsError } from '../http/errors.js';
import { listItems, oneOf, Param, time } from '../http/params.js';
import { one, type AdsRoutes } from '../http/route.js';
import { KeywordInsightsSchema, keywordInsights } from './service.js';

/** Comma-separated keywords, each at most 100 characters. */
function keywordList(): Param<string[]> {
  return new Param<string[]>((raw, name) => {
    const items = [...new Set(listItems(raw, name))];
    if (items.length === 0) throw AdsError.invalidParameter(name, `Expected at least one keyword for ${name}`);
    const long = items.find((k) => [...k].length > 100);
    if (long !== undefined) throw AdsError.invalidParameter(name, `Each keyword of ${name} is at most 100 characters`);
    return items;
  });
}

export function keywordInsightRoutes(ads: AdsRoutes): void {
  ads.route({
    method: 'GET',
    url: '/insights/keywords/search',
    // Not the 5 per 15 minutes of other reads without an account: an advertiser tries many keywords.
    rate: 'account-read',
    params: {
      granularity: oneOf(['DAY', 'HOUR'] as const).required(),
      keywords: keywordList().required(),
      start_time: time().required(),
      end_time: time(),
      location: new Param<string>((raw, name) => {
        const value = String(Array.isArray(raw) ? raw[0] : raw).trim().toUpperCase();
        if (!/^[A-Z]{2}$/.test(value)) throw AdsError.invalidParameter(name, `Expected a country-level location (a two-letter ISO country code), got ${JSON.stringify(raw)} for ${name}`);
        return value;
      }),
      negative_keywords: keywordList(),
    },
    response: KeywordInsightsSchema,
    handler: async (call) => one(await keywordInsights(call.db, ads.ctx.store.dialect, call.params, ads.ctx.clock.now())),
  });
}
