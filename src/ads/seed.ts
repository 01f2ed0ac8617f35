import type { PlatformContext } from '../platform/context.js';
import type { UserTable } from '../store/schema.js';
import type { DbOrTx } from '../store/store.js';
import { OWNER_PERMISSIONS, createAccount } from './accounts/service.js';
import { adsAccountIdsOf, insertAccountApp, linkAccountUser, updateAccount } from './accounts/store.js';
import type { AdsActor } from './actor.js';
import { applyUserBatch, parseUserBatch } from './audiences/batch.js';
import { normaliseEmail, sha256Hex } from './audiences/matching.js';
import { createAudience } from './audiences/service.js';
import { updateAudienceRow } from './audiences/store.js';
import { createCampaign } from './campaigns/service.js';
import { createCatalog, upsertProducts } from './catalogs/service.js';
import { createFundingInstrument } from './funding-instruments/service.js';
import { HISTORY_FEATURE } from './history/service.js';
import { newAdsId } from './ids.js';
import { seedAdsCreatives } from './media-library/demo.js';
import { createLineItem } from './line-items/service.js';
import { promotePosts } from './promoted/service.js';
import { latestPostOf } from './promoted/store.js';
import { createTargetingCriterion } from './targeting/service.js';

const DAY = 24 * 60 * 60 * 1000;

/**
 * The advertising side of the demo workspace, inside seedDemo's transaction: each demo user gets
 * a production ads account (allowlisted for account history) with an account app, a funding
 * instrument, a campaign and two line items, targeting on the first and the user's latest post
 * promoted by it, and its creatives (a media library with an image and a video, a card, a
 * promoted-only post carrying it, promoted too); all written through the same services as the
 * endpoints, so the account history holds their creation. Chen may read (not change) Plaza News's account, as an analyst;
 * dana may compose posts on ada's account (TWEET_COMPOSER).
 * Returns each user's ads account ids.
 */
export async function seedAdsDemo(ctx: PlatformContext, tx: DbOrTx, users: UserTable[]): Promise<Map<string, string[]>> {
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
    await seedAdsCreatives(ctx, tx, actor, account, user, timeline.id);
  }
  const chen = users.find((u) => u.username === 'chen');
  const news = accountOf.get('plazanews');
  if (chen && news) await linkAccountUser(tx, news, chen.id, ['CAMPAIGN_ANALYST'], now.toISOString());
  // Spec 001: "to post for an advertiser, the advertiser grants the caller's handle access": ada
  // grants dana post composing on her account, so posting for another user (and nullcast=false
  // refused there) can be tried with dana's own tokens.
  const dana = users.find((u) => u.username === 'dana');
  const adas = accountOf.get('ada');
  if (dana && adas) await linkAccountUser(tx, adas, dana.id, ['TWEET_COMPOSER'], now.toISOString());
  await seedAudiencesAndCatalog(ctx, tx, users, accountOf);
  const out = new Map<string, string[]>();
  for (const user of users) out.set(user.id, await adsAccountIdsOf(tx, user.id));
  return out;
}

/**
 * Issue #14's demo: every demo user has a phone number (matchable like their email); Ada's and
 * Chen's accounts are in one business, so audiences can be shared between them; Ada's account
 * has a custom audience of every demo user (uploaded as hashed emails, already processed) and Ada
 * a product catalog.
 */
async function seedAudiencesAndCatalog(ctx: PlatformContext, tx: DbOrTx, users: UserTable[], accountOf: Map<string, string>): Promise<void> {
  const stamp = ctx.clock.now().toISOString();
  for (const [i, user] of users.entries()) {
    await tx.insertInto('user_phone_numbers').values({ user_id: user.id, phone_number: `+1555010${String(i).padStart(4, '0')}`, created_at: stamp }).execute();
  }
  const business = newAdsId(ctx);
  for (const username of ['ada', 'chen']) {
    const id = accountOf.get(username);
    if (id) await updateAccount(tx, id, { business_id: business, business_name: 'Plaza Demo Business' });
  }
  const ada = users.find((u) => u.username === 'ada');
  const adaAccount = accountOf.get('ada');
  if (!ada || !adaAccount) return;
  const actor: AdsActor = { ctx, env: 'production', userId: ada.id, appTier: 'pro' };
  const account = await tx.selectFrom('ads_accounts').selectAll().where('id', '=', adaAccount).executeTakeFirstOrThrow();
  const audience = await createAudience(actor, tx, account, { name: 'Plaza demo users', description: 'Every demo user, uploaded as hashed emails' });
  const emails = users.flatMap((u) => (u.email ? [sha256Hex(normaliseEmail(u.email))] : []));
  const batch = parseUserBatch([{ operation_type: 'Update', params: { users: emails.map((e) => ({ email: [e] })) } }], 'application/json', { expiresAtRequired: false, acceptsEffectiveAt: true }, ctx.clock.now());
  await applyUserBatch(ctx, tx, audience.id, batch);
  await updateAudienceRow(tx, audience.id, { processing_until: null });
  const catalog = await createCatalog(actor, tx, { name: 'Ada Example shop' });
  const product = (id: string, title: string, price: string, extra: Record<string, string | number> = {}) => ({
    id,
    title,
    description: `${title}, from the Plaza demo shop.`,
    availability: 'in stock',
    condition: 'new',
    price,
    link: `https://shop.plaza.example/products/${id}`,
    image_link: `https://shop.plaza.example/images/${id}.jpg`,
    brand: 'Plaza',
    inventory: 10,
    ...extra,
  });
  await upsertProducts(actor, tx, catalog.id, {
    products: [
      product('mug-blue', 'Plaza mug, blue', '12.00 USD', { item_group_id: 'mug', color: 'blue' }),
      product('mug-red', 'Plaza mug, red', '12.00 USD', { item_group_id: 'mug', color: 'red' }),
      product('tote', 'Plaza tote bag', '25.00 USD', { sale_price: '19.00 USD' }),
    ],
  });
}

export { adsAccountIdsOf };
