import crypto from 'node:crypto';
import type { PlatformContext } from '../../platform/context.js';
import type { AdsDeliveryEventTable, AdsDeliveryKind } from '../../store/schema-ads.js';
import type { DbOrTx } from '../../store/store.js';
import { newAdsId } from '../ids.js';
import { usersReached, type Criterion } from '../targeting/reach.js';
import { authorsHiddenFrom, criteriaOf, insertDeliveryEvent, latestImpression, lineItemBilling, liveCandidates, spent, type Candidate } from './store.js';

/**
 * Promoted posts delivered into home timelines (issue 38 §3), the one path a timeline read and the
 * admin simulation both take:
 * - a promoted post is a candidate while its promoted post, line item, campaign, funding
 *   instrument and (production) account are live and ACTIVE, inside the line item's flight and
 *   the instrument's dates, and the line item's placements include the home timeline;
 * - it is delivered to a viewer its line item's targeting reaches (src/ads/targeting/reach.ts),
 *   who is not its author, does not mute or block its author nor is blocked by it, and whose page
 *   does not already show it, while every budget of the line item and its campaign has something
 *   left (daily budgets since midnight in the account's time zone, by the clock);
 * - a timeline page holds at most one promoted post, at PROMOTED_SLOT; which candidate is chosen
 *   for a page follows from the viewer and the page asked for, so the same request answers the same;
 * - serving the page counts the impression; a like, reply, repost, follow of the author, or click
 *   by that viewer within ATTRIBUTION_MS of it counts an engagement of the promoted post;
 * - spend accrues by the line item's pay_by (the events it bills) at its bid, in micros:
 *   impressions at the bid per thousand (CPM), other units at the bid each, never past a budget.
 */

/** Where in a page the promoted post goes (0-based): after the first two organic posts. */
export const PROMOTED_SLOT = 2;
/** The bid of a line item with bid_strategy AUTO (it names none): Plaza's choice, in micros. */
export const AUTO_BID_LOCAL_MICRO = 2_000_000;
/** How long after an impression an engagement is still the promotion's. */
export const ATTRIBUTION_MS = 7 * 24 * 60 * 60 * 1000;

const TIMELINE_PLACEMENTS = ['ALL_ON_PLATFORM', 'PLATFORM_TIMELINE'];
export const ENGAGEMENT_KINDS: readonly AdsDeliveryKind[] = ['like', 'reply', 'repost', 'follow', 'click', 'url_click'];

/** The events each pay_by bills; the others (APP_CLICK, views...) bill nothing Plaza observes. */
const BILLED: Record<string, readonly AdsDeliveryKind[]> = {
  IMPRESSION: ['impression'],
  ENGAGEMENT: ENGAGEMENT_KINDS,
  FOLLOW: ['follow'],
  LINK_CLICK: ['url_click'],
};

type Billing = Pick<
  Candidate,
  'line_item_id' | 'campaign_id' | 'timezone' | 'pay_by' | 'bid_amount_local_micro' | 'line_item_daily_budget' | 'line_item_total_budget' | 'campaign_daily_budget' | 'campaign_total_budget'
>;

/**
 * The promoted post to show in a viewer's home timeline page, its impression counted; undefined
 * when none may be shown. `shown` are the page's own posts; `page` names the page asked for.
 */
export async function deliverPromotedPost(ctx: PlatformContext, viewerId: string, shown: readonly string[], page: string): Promise<string | undefined> {
  const now = ctx.clock.now();
  const db = ctx.store.db;
  const live = (await timelineCandidates(db, now)).filter((c) => c.author_id !== viewerId && !shown.includes(c.post_id));
  if (live.length === 0) return undefined;
  const hidden = await authorsHiddenFrom(db, viewerId, [...new Set(live.map((c) => c.author_id))]);
  const candidates = live.filter((c) => !hidden.has(c.author_id));
  if (candidates.length === 0) return undefined;
  const criteria = await criteriaByLineItem(db, candidates);
  const first = crypto.createHash('sha256').update(`${viewerId}|${page}`).digest().readUInt32BE(0) % candidates.length;
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[(first + i) % candidates.length]!;
    const reached = await usersReached({ db, dialect: ctx.store.dialect, accountId: c.account_id, now, within: viewerId }, criteria.get(c.line_item_id) ?? []);
    if (reached.has(viewerId) && (await serve(ctx, db, c, viewerId, now))) return c.post_id;
  }
  return undefined;
}

/** The candidates whose line item's placements include the home timeline. */
async function timelineCandidates(db: DbOrTx, now: Date): Promise<Candidate[]> {
  return (await liveCandidates(db, now.toISOString())).filter((c) => (JSON.parse(c.placements) as string[]).some((p) => TIMELINE_PLACEMENTS.includes(p)));
}

async function criteriaByLineItem(db: DbOrTx, candidates: readonly Candidate[]): Promise<Map<string, Criterion[]>> {
  const byLineItem = new Map<string, Criterion[]>();
  for (const c of await criteriaOf(db, [...new Set(candidates.map((c) => c.line_item_id))])) {
    const list = byLineItem.get(c.line_item_id) ?? [];
    list.push(c);
    byLineItem.set(c.line_item_id, list);
  }
  return byLineItem;
}

/** Counts an impression of the candidate for the viewer, with its charge; undefined (nothing counted) when a budget is spent. */
export async function serve(ctx: PlatformContext, db: DbOrTx, c: Candidate, viewerId: string, now: Date): Promise<AdsDeliveryEventTable | undefined> {
  const left = await remaining(db, c, now);
  if (left <= 0) return undefined;
  const event: AdsDeliveryEventTable = {
    id: newAdsId(ctx),
    account_id: c.account_id,
    funding_instrument_id: c.funding_instrument_id,
    campaign_id: c.campaign_id,
    line_item_id: c.line_item_id,
    promoted_post_id: c.promoted_post_id,
    post_id: c.post_id,
    author_id: c.author_id,
    viewer_id: viewerId,
    kind: 'impression',
    ...charge(c, 'impression', left),
    at: now.toISOString(),
  };
  await insertDeliveryEvent(db, event);
  return event;
}

/**
 * Counts an engagement of a promoted post by the viewer it was shown to: of that post (like,
 * reply, repost, click), or of its author (follow). Nothing when no impression came before it
 * within ATTRIBUTION_MS: the engagement is organic.
 */
export async function recordPromotedEngagement(
  ctx: PlatformContext,
  db: DbOrTx,
  viewerId: string,
  of: { postId: string } | { authorId: string },
  kind: Exclude<AdsDeliveryKind, 'impression'>,
): Promise<boolean> {
  const now = ctx.clock.now();
  const impression = await latestImpression(db, viewerId, of, new Date(now.getTime() - ATTRIBUTION_MS).toISOString());
  if (!impression) return false;
  await engage(ctx, db, impression, kind, now);
  return true;
}

/** An engagement following an impression, charged when the line item bills it. */
export async function engage(ctx: PlatformContext, db: DbOrTx, impression: AdsDeliveryEventTable, kind: AdsDeliveryKind, now: Date): Promise<void> {
  const billing = await lineItemBilling(db, impression.line_item_id);
  const billed = billing && BILLED[billing.pay_by]?.includes(kind) ? charge(billing, kind, await remaining(db, billing, now)) : { billed: 0, charge_local_micro: 0 };
  await insertDeliveryEvent(db, { ...impression, id: newAdsId(ctx), kind, ...billed, at: now.toISOString() });
}

/** What a billed event costs, within what is left of the budgets. */
function charge(b: Billing, kind: AdsDeliveryKind, left: number): { billed: number; charge_local_micro: number } {
  if (!BILLED[b.pay_by]?.includes(kind) || left <= 0) return { billed: 0, charge_local_micro: 0 };
  const bid = b.bid_amount_local_micro ?? AUTO_BID_LOCAL_MICRO;
  const unit = kind === 'impression' ? Math.floor(bid / 1000) : bid;
  return { billed: 1, charge_local_micro: Math.min(unit, left) };
}

/** What may still be spent now: the least of the budgets set (Infinity when none is). */
async function remaining(db: DbOrTx, b: Billing, now: Date): Promise<number> {
  const s = await spent(db, b, startOfDayIn(b.timezone, now).toISOString());
  const limits: Array<[number | null, number]> = [
    [b.campaign_total_budget, s.campaign.total],
    [b.campaign_daily_budget, s.campaign.today],
    [b.line_item_total_budget, s.lineItem.total],
    [b.line_item_daily_budget, s.lineItem.today],
  ];
  return Math.min(Infinity, ...limits.flatMap(([budget, used]) => (budget === null ? [] : [budget - used])));
}

/** Midnight of `at`'s day in the time zone (UTC when the zone is unknown). */
export function startOfDayIn(timeZone: string, at: Date): Date {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(at);
  } catch {
    return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  }
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  const offset = wall - Math.floor(at.getTime() / 1000) * 1000;
  return new Date(Date.UTC(get('year'), get('month') - 1, get('day')) - offset);
}

/** The candidates of one line item, for the simulation: as a timeline would find them. */
export async function candidatesOfLineItem(ctx: PlatformContext, lineItemId: string): Promise<Candidate[]> {
  return (await timelineCandidates(ctx.store.db, ctx.clock.now())).filter((c) => c.line_item_id === lineItemId);
}

/** The users a line item's targeting reaches now. */
export async function lineItemAudience(ctx: PlatformContext, c: Candidate): Promise<string[]> {
  const criteria = (await criteriaByLineItem(ctx.store.db, [c])).get(c.line_item_id) ?? [];
  const reached = await usersReached({ db: ctx.store.db, dialect: ctx.store.dialect, accountId: c.account_id, now: ctx.clock.now() }, criteria);
  return [...reached].sort();
}
