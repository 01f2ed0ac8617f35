import { Type, type Static } from '@sinclair/typebox';
import { findUserById } from '../../auth/store.js';
import type { DbOrTx } from '../../store/store.js';
import { AccountEntity } from '../account-entity.js';
import type { AccountRow, AdsActor } from '../actor.js';
import { checkBudgets } from '../budgets.js';
import { getCampaign } from '../campaigns/service.js';
import type { CampaignRow } from '../campaigns/store.js';
import { businessCategoryOf } from '../categories/reference-data.js';
import { Entity, OneOf } from '../http/entity-schema.js';
import { AdsError } from '../http/errors.js';
import { runList, type Page } from '../http/list.js';
import { campaignLineItems, countActiveLineItems, lineItemsOf, type LineItemRow } from './store.js';
import {
  APP_OBJECTIVES,
  AUTOMATIC_PAY_BY,
  DEFAULT_GOAL,
  FREQUENCY_CAP_OBJECTIVES,
  GOAL_OBJECTIVES,
  NO_MAX_BID_OBJECTIVES,
  PAY_BY_FOR_GOAL,
  PLACEMENTS,
  PLACEMENT_COMBINATIONS,
  PRODUCT_TYPES,
  TARGET_BID_OBJECTIVES,
  isValidPlacementCombination,
  type Objective,
} from './vocabulary.js';
import { LINE_ITEM_SORTING, changedSettings, columnsOf, settingsOf, type LineItemCreate, type LineItemListParams, type LineItemSettings, type LineItemUpdate } from './entity.js';
import { lineItemWire } from './wire.js';

/**
 * Line item rules: spec 001 "Line items" (every PUT parameter rule, which a new line item obeys
 * too), "States and transitions" and "Advertiser business category"; shared/reference/ads.md §3
 * for creation (required parameters, one product type and objective per campaign, limits).
 */
export const MAX_LINE_ITEMS_PER_CAMPAIGN = 100;
export const MAX_ACTIVE_LINE_ITEMS = 256;
const LINE_ITEMS = new AccountEntity({ table: 'ads_line_items', label: 'Line Item', parameter: 'line_item_id', history: { entity: 'LINE_ITEM', data: lineItemWire } });

const invalid = AdsError.invalidParameter;
const required = (parameter: string, message: string) => new AdsError(400, [{ code: 'MISSING_PARAMETER', message, parameter }]);

/** The given parameters, as a set of names: errors name the parameter that was sent. */
function givenOf(p: object): Set<string> {
  return new Set(Object.entries(p).filter(([, v]) => v !== undefined).map(([k]) => k));
}

function defaultPayBy(goal: string, bidStrategy: string): string {
  if (goal === 'LINK_CLICKS' && bidStrategy === 'TARGET') return 'LINK_CLICK';
  return PAY_BY_FOR_GOAL[goal]?.[0] ?? AUTOMATIC_PAY_BY[goal] ?? 'IMPRESSION';
}

function payByFits(goal: string, bidStrategy: string, payBy: string): boolean {
  if (goal === 'LINK_CLICKS' && bidStrategy === 'TARGET' && payBy === 'IMPRESSION') return false;
  const choosable = PAY_BY_FOR_GOAL[goal];
  return choosable ? choosable.includes(payBy) : payBy === (AUTOMATIC_PAY_BY[goal] ?? 'IMPRESSION');
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const ANDROID_APP = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
const IOS_APP = /^[0-9]{1,15}$/;

/** Every rule of a line item's state; `mode` says whether pay_by is being changed after creation. */
async function checkLineItem(actor: AdsActor, db: DbOrTx, campaign: CampaignRow, s: LineItemSettings, given: Set<string>, mode: 'create' | 'update'): Promise<void> {
  const named = (field: string, otherwise: string) => (given.has(field) ? field : otherwise);
  const objective = s.objective;

  if (!isValidPlacementCombination(s.product_type, s.placements)) {
    const valid = (PLACEMENT_COMBINATIONS[s.product_type as keyof typeof PLACEMENT_COMBINATIONS] ?? []).map((c) => c.join('+')).join(', ');
    throw invalid('placements', `placements ${s.placements.join(', ')} cannot be used with product_type ${s.product_type}; valid combinations: ${valid}`);
  }

  // bid_strategy: MAX not for REACH or FOLLOWERS; TARGET only for REACH or WEBSITE_CLICKS.
  if (s.bid_strategy === 'MAX' && NO_MAX_BID_OBJECTIVES.includes(objective)) {
    throw invalid(named('bid_strategy', 'objective'), `bid_strategy MAX is not available for objective ${objective}`);
  }
  if (s.bid_strategy === 'TARGET' && !TARGET_BID_OBJECTIVES.includes(objective)) {
    throw invalid(named('bid_strategy', 'objective'), `bid_strategy TARGET is available only for objectives ${TARGET_BID_OBJECTIVES.join(' and ')}, not ${objective}`);
  }
  if ((s.bid_strategy === 'MAX' || s.bid_strategy === 'TARGET') && s.bid_amount_local_micro === null) {
    throw required('bid_amount_local_micro', `bid_amount_local_micro is required when bid_strategy is ${s.bid_strategy}`);
  }

  // PUBLISHER_NETWORK needs advertiser_domain and categories.
  if (s.placements.includes('PUBLISHER_NETWORK')) {
    if (!s.advertiser_domain) throw required('advertiser_domain', 'advertiser_domain is required when placements include PUBLISHER_NETWORK');
    if (s.categories.length === 0) throw required('categories', 'categories is required when placements include PUBLISHER_NETWORK');
  }
  if (given.has('advertiser_domain') && s.advertiser_domain !== null && !DOMAIN.test(s.advertiser_domain)) {
    throw invalid('advertiser_domain', `advertiser_domain must be a domain without protocol (such as example.com), got ${JSON.stringify(s.advertiser_domain)}`);
  }

  // APP_INSTALLS and APP_ENGAGEMENTS need a store identifier.
  if (APP_OBJECTIVES.includes(objective) && !s.android_app_store_identifier && !s.ios_app_store_identifier) {
    throw required(
      named('ios_app_store_identifier', 'android_app_store_identifier'),
      `objective ${objective} needs android_app_store_identifier or ios_app_store_identifier`,
    );
  }
  if (given.has('android_app_store_identifier') && s.android_app_store_identifier !== null && !ANDROID_APP.test(s.android_app_store_identifier)) {
    throw invalid('android_app_store_identifier', `android_app_store_identifier must be a package name such as com.example.app`);
  }
  if (given.has('ios_app_store_identifier') && s.ios_app_store_identifier !== null && !IOS_APP.test(s.ios_app_store_identifier)) {
    throw invalid('ios_app_store_identifier', 'ios_app_store_identifier must be the numeric part of the App Store identifier');
  }

  // frequency_cap only for REACH, ENGAGEMENTS, VIDEO_VIEWS, PREROLL_VIEWS.
  if (s.frequency_cap !== null && !FREQUENCY_CAP_OBJECTIVES.includes(objective)) {
    throw invalid(named('frequency_cap', 'objective'), `frequency_cap is available only for objectives ${FREQUENCY_CAP_OBJECTIVES.join(', ')}, not ${objective}`);
  }

  const goalObjectives = GOAL_OBJECTIVES[s.goal];
  if (goalObjectives && !goalObjectives.includes(objective)) {
    throw invalid(named('goal', 'objective'), `goal ${s.goal} is available only for objectives ${goalObjectives.join(', ')}`);
  }
  if (s.goal === 'WEBSITE_CONVERSIONS' && !s.primary_web_event_tag) {
    throw required('primary_web_event_tag', 'primary_web_event_tag is required when goal is WEBSITE_CONVERSIONS');
  }

  // pay_by: chosen at creation where the goal allows it; afterwards only for APP_INSTALLS.
  if (given.has('pay_by')) {
    if (mode === 'update' && objective !== 'APP_INSTALLS') {
      throw invalid('pay_by', `pay_by can be changed only for line items with objective APP_INSTALLS, not ${objective}`);
    }
    const choosable = PAY_BY_FOR_GOAL[s.goal];
    if (!choosable) throw invalid('pay_by', `pay_by is set automatically for goal ${s.goal}`);
    if (!choosable.includes(s.pay_by)) throw invalid('pay_by', `goal ${s.goal} supports pay_by ${choosable.join(' or ')}, not ${s.pay_by}`);
  }
  if (s.goal === 'LINK_CLICKS' && s.bid_strategy === 'TARGET' && s.pay_by === 'IMPRESSION') {
    throw invalid(named('pay_by', 'bid_strategy'), 'pay_by IMPRESSION is not supported with bid_strategy TARGET for goal LINK_CLICKS');
  }

  // Budgets: daily at most total; daily budget and standard_delivery only under LINE_ITEM optimization.
  checkBudgets(
    { daily: s.daily_budget_amount_local_micro, total: s.total_budget_amount_local_micro },
    { daily: given.has('daily_budget_amount_local_micro'), total: given.has('total_budget_amount_local_micro') },
  );
  if (campaign.budget_optimization !== 'LINE_ITEM') {
    for (const field of ['daily_budget_amount_local_micro', 'standard_delivery'] as const) {
      if (given.has(field) && s[field] !== null) {
        throw invalid(field, `${field} is available only when the parent campaign has budget_optimization LINE_ITEM; campaign ${campaign.id} has ${campaign.budget_optimization}`);
      }
    }
  }

  if (s.start_time !== null && s.end_time !== null && s.end_time <= s.start_time) {
    throw invalid(named('end_time', 'start_time'), 'end_time must be after start_time');
  }

  // PREROLL_VIEWS: one or two advertiser business categories, as their IAB categories.
  if (objective === 'PREROLL_VIEWS') {
    const business = new Set<string>();
    for (const iab of s.categories) {
      const category = businessCategoryOf(iab);
      if (!category) throw invalid(named('categories', 'objective'), `${iab} belongs to no advertiser business category (see GET advertiser_business_categories)`);
      business.add(category.id);
    }
    if (business.size < 1 || business.size > 2) {
      throw invalid(
        named('categories', 'objective'),
        `PREROLL_VIEWS line items need one or two advertiser business categories, set through categories as their iab_categories; got ${business.size}`,
      );
    }
  }

  // Only certain client applications may set advertiser_user_id.
  if (given.has('advertiser_user_id') && s.advertiser_user_id !== null) {
    if (actor.appTier !== 'enterprise') throw invalid('advertiser_user_id', 'setting advertiser_user_id is not allowed');
    if (!(await findUserById(db, s.advertiser_user_id))) {
      throw AdsError.invalidParameter('advertiser_user_id', `User ${s.advertiser_user_id} was not found`, 'INVALID_USER_ID');
    }
  }
}

async function checkActiveLimit(db: DbOrTx, account: AccountRow): Promise<void> {
  if ((await countActiveLineItems(db, account.id)) >= MAX_ACTIVE_LINE_ITEMS) {
    throw new AdsError(400, [{ code: 'TOO_MANY_LINE_ITEMS', message: `Account ${account.id} already has ${MAX_ACTIVE_LINE_ITEMS} active line items`, parameter: 'entity_status' }]);
  }
}

/** bid_amount_local_micro, when given, must be greater than zero (whatever the strategy). */
function checkBidAmount(p: { bid_amount_local_micro?: number | null }): void {
  if (p.bid_amount_local_micro !== undefined && p.bid_amount_local_micro !== null && p.bid_amount_local_micro <= 0) {
    throw invalid('bid_amount_local_micro', 'bid_amount_local_micro must be greater than zero');
  }
}

export async function createLineItem(
  actor: AdsActor,
  db: DbOrTx,
  account: AccountRow,
  p: LineItemCreate,
): Promise<LineItemRow> {
  const given = givenOf(p);
  checkBidAmount(p);
  const campaign = await getCampaign(db, account, p.campaign_id);
  const siblings = await campaignLineItems(db, campaign.id);
  if (siblings.sample && (siblings.sample.product_type !== p.product_type || siblings.sample.objective !== p.objective)) {
    const field = siblings.sample.objective !== p.objective ? 'objective' : 'product_type';
    throw invalid(
      field,
      `All line items of campaign ${campaign.id} share product_type ${siblings.sample.product_type} and objective ${siblings.sample.objective}`,
    );
  }
  if (siblings.count >= MAX_LINE_ITEMS_PER_CAMPAIGN) {
    throw new AdsError(400, [{ code: 'TOO_MANY_LINE_ITEMS', message: `Campaign ${campaign.id} already has ${MAX_LINE_ITEMS_PER_CAMPAIGN} line items`, parameter: 'campaign_id' }]);
  }
  const goal = p.goal ?? DEFAULT_GOAL[p.objective as Objective];
  const bidStrategy = p.bid_strategy ?? 'AUTO';
  const s: LineItemSettings = {
    objective: p.objective,
    product_type: p.product_type,
    placements: p.placements,
    start_time: p.start_time,
    end_time: p.end_time ?? null,
    bid_strategy: bidStrategy,
    // AUTO ignores bid_amount_local_micro (spec 001 "Line items").
    bid_amount_local_micro: bidStrategy === 'AUTO' ? null : (p.bid_amount_local_micro ?? null),
    goal,
    pay_by: p.pay_by ?? defaultPayBy(goal, bidStrategy),
    entity_status: p.entity_status ?? 'ACTIVE',
    frequency_cap: p.frequency_cap ?? null,
    duration_in_days: p.duration_in_days ?? null,
    audience_expansion: p.audience_expansion ?? null,
    advertiser_domain: p.advertiser_domain ?? null,
    categories: p.categories ?? [],
    android_app_store_identifier: p.android_app_store_identifier ?? null,
    ios_app_store_identifier: p.ios_app_store_identifier ?? null,
    primary_web_event_tag: p.primary_web_event_tag ?? null,
    standard_delivery: p.standard_delivery ?? (campaign.budget_optimization === 'LINE_ITEM' ? true : null),
    daily_budget_amount_local_micro: p.daily_budget_amount_local_micro ?? null,
    total_budget_amount_local_micro: p.total_budget_amount_local_micro ?? null,
    advertiser_user_id: p.advertiser_user_id ?? null,
    name: p.name ?? null,
  };
  await checkLineItem(actor, db, campaign, s, given, 'create');
  if (s.entity_status === 'ACTIVE') await checkActiveLimit(db, account);
  return LINE_ITEMS.create(actor, db, account, {
    campaign_id: campaign.id,
    ...columnsOf(s),
    target_cpa_local_micro: null,
    automatic_post_promotion: null,
    creative_source: 'MANUAL',
    currency: campaign.currency,
  });
}

/** PUT line_items/:line_item_id: changes only what is given; an empty value unsets. */
export async function updateLineItem(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined, p: LineItemUpdate): Promise<LineItemRow> {
  const before = await getLineItem(db, account, id);
  const campaign = await getCampaign(db, account, before.campaign_id, true);
  // Sending back what a GET returned is no change (the SDKs' save() sends every attribute).
  const changes = { ...p };
  if (changes.pay_by === before.pay_by) delete changes.pay_by;
  const given = givenOf(changes);
  checkBidAmount(p);
  const s: LineItemSettings = { ...settingsOf(before), ...changedSettings(changes) };
  if (changes.pay_by === undefined && !payByFits(s.goal, s.bid_strategy, s.pay_by)) s.pay_by = defaultPayBy(s.goal, s.bid_strategy);
  if (s.bid_strategy === 'AUTO') s.bid_amount_local_micro = null;
  await checkLineItem(actor, db, campaign, s, given, 'update');
  if (s.entity_status === 'ACTIVE' && before.entity_status !== 'ACTIVE') await checkActiveLimit(db, account);
  const columns = Object.fromEntries(Object.entries(columnsOf(s)).filter(([k, v]) => before[k as keyof LineItemRow] !== v)) as Partial<LineItemRow>;
  return LINE_ITEMS.update(actor, db, account, before, columns);
}

/** DELETE line_items/:line_item_id: not reversible; a second DELETE is 404; child promoted posts stay. */
export function deleteLineItem(actor: AdsActor, db: DbOrTx, account: AccountRow, id: string | undefined): Promise<LineItemRow> {
  return LINE_ITEMS.delete(actor, db, account, id);
}

/** One line item of the account; a deleted one only with with_deleted=true. */
export function getLineItem(db: DbOrTx, account: AccountRow, id: string | undefined, withDeleted = false, parameter?: string): Promise<LineItemRow> {
  return LINE_ITEMS.get(db, account, id, withDeleted, parameter);
}

export function listLineItems(db: DbOrTx, account: AccountRow, p: LineItemListParams): Promise<Page<LineItemRow>> {
  const base = lineItemsOf(db, account.id, {
    ids: p.line_item_ids,
    campaignIds: p.campaign_ids,
    fundingInstrumentIds: p.funding_instrument_ids,
    q: p.q,
    withDeleted: p.with_deleted,
    withDraft: p.with_draft,
  });
  return runList(db, base, LINE_ITEM_SORTING, p);
}

/** GET line_items/placements: valid placement combinations per product type. */
export const PlacementsSchema = Entity('Placements', 'The placement combinations a product type may take', {
  product_type: OneOf(PRODUCT_TYPES),
  placements: Type.Array(Type.Array(OneOf(PLACEMENTS))),
});
type Placements = Static<typeof PlacementsSchema>;

export function placementsFor(productType?: string): Placements[] {
  const types = productType ? [productType] : Object.keys(PLACEMENT_COMBINATIONS);
  return types.map((t) => ({ product_type: t as Placements['product_type'], placements: PLACEMENT_COMBINATIONS[t as Placements['product_type']] }));
}
