import type { AppContext } from '../context.js';
import type { UserTable } from '../store/schema.js';
import type { DbOrTx } from '../store/store.js';
import { OWNER_PERMISSIONS, createAccount } from './accounts/service.js';
import { adsAccountIdsOf, insertAccountApp, linkAccountUser } from './accounts/store.js';
import type { AdsActor } from './actor.js';
import { createCampaign } from './campaigns/service.js';
import { createFundingInstrument } from './funding-instruments/service.js';
import { HISTORY_FEATURE } from './history/service.js';
import { newAdsId } from './ids.js';
import { createLineItem } from './line-items/service.js';
import { promotePosts } from './promoted/service.js';
import { latestPostOf } from './promoted/store.js';
import { createTargetingCriterion } from './targeting/service.js';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The advertising side of the demo workspace, inside seedDemo's transaction: each demo user gets
 * a production ads account (allowlisted for account history) with an account app, a funding
 * instrument, a campaign and two line items, targeting on the first and the user's latest post
 * promoted by it; all written through the same services as the endpoints, so the account history
 * holds their creation. Chen may read (not change) Plaza News's account, as an analyst.
 * Returns each user's ads account ids.
 */
export async function seedAdsDemo(ctx: AppContext, tx: DbOrTx, users: UserTable[]): Promise<Map<string, string[]>> {
  const now = ctx.clock.now();
  const accountOf = new Map<string, string>();
  for (const user of users) {
    const actor: AdsActor = { ctx, env: 'production', userId: user.id, appTier: 'pro' };
    const account = await createAccount(actor, tx, {
      name: `${user.name} ads`,
      env: 'production',
      industryType: user.username === 'plazanews' ? 'MEDIA' : 'TECHNOLOGY',
      users: [{ id: user.id, permissions: OWNER_PERMISSIONS }],
      features: [HISTORY_FEATURE],
    });
    accountOf.set(user.username, account.id);
    const stamp = now.toISOString();
    await insertAccountApp(tx, {
      id: newAdsId(ctx),
      account_id: account.id,
      app_store_identifier: `com.plaza.${user.username}`,
      os_type: 'Android',
      conversion_tracking_enabled: 0,
      deep_link_pattern: `plaza-${user.username}://`,
      created_at: stamp,
      updated_at: stamp,
      deleted: 0,
    });
    const fi = await createFundingInstrument(actor, tx, account, {
      type: 'CREDIT_CARD',
      currency: 'USD',
      start_time: new Date(now.getTime() - 30 * DAY).toISOString(),
      credit_limit_local_micro: 500_000_000,
      description: 'Visa ending in 4242',
    });
    const campaign = await createCampaign(actor, tx, account, {
      funding_instrument_id: fi.id,
      name: `${user.name} launch`,
      daily_budget_amount_local_micro: 50_000_000,
      total_budget_amount_local_micro: 1_000_000_000,
    });
    const start = new Date(now.getTime() + DAY).toISOString();
    const timeline = await createLineItem(actor, tx, account, {
      campaign_id: campaign.id,
      name: 'Timeline engagement',
      objective: 'ENGAGEMENTS',
      product_type: 'PROMOTED_POSTS',
      placements: ['ALL_ON_PLATFORM'],
      start_time: start,
      end_time: new Date(now.getTime() + 31 * DAY).toISOString(),
      daily_budget_amount_local_micro: 20_000_000,
      total_budget_amount_local_micro: 400_000_000,
    });
    await createLineItem(actor, tx, account, {
      campaign_id: campaign.id,
      name: 'Search boost',
      objective: 'ENGAGEMENTS',
      product_type: 'PROMOTED_POSTS',
      placements: ['PLATFORM_SEARCH', 'PLATFORM_TIMELINE'],
      start_time: start,
      bid_strategy: 'MAX',
      bid_amount_local_micro: 1_500_000,
      frequency_cap: 3,
      duration_in_days: 7,
      entity_status: 'PAUSED',
    });
    await createTargetingCriterion(actor, tx, account, { line_item_id: timeline.id, targeting_type: 'LOCATION', targeting_value: 'US', operator_type: 'EQ' });
    await createTargetingCriterion(actor, tx, account, { line_item_id: timeline.id, targeting_type: 'BROAD_KEYWORD', targeting_value: 'plaza', operator_type: 'EQ' });
    const post = await latestPostOf(tx, user.id);
    if (post) await promotePosts(actor, tx, account, { line_item_id: timeline.id, post_ids: [post] });
  }
  const chen = users.find((u) => u.username === 'chen');
  const news = accountOf.get('plazanews');
  if (chen && news) await linkAccountUser(tx, news, chen.id, ['CAMPAIGN_ANALYST'], now.toISOString());
  const out = new Map<string, string[]>();
  for (const user of users) out.set(user.id, await adsAccountIdsOf(tx, user.id));
  return out;
}

export { adsAccountIdsOf };
