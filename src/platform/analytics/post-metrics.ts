import type { AdsDeliveryKind } from '../../store/schema-ads.js';
import type { PostRow } from '../posts/wire.js';
import type { View } from '../view.js';

/**
 * The private metrics of a post (post fields non_public_metrics, organic_metrics and
 * promoted_metrics): the public platform shows them only to the post's author, with user
 * context; to anyone else the fields are left out (and the response carries a
 * not-authorized-for-field item for each, src/platform/expansions.ts). Read from the row the response already holds,
 * so selecting them costs no query. Plaza observes no link or profile clicks: those count 0.
 */
const isAuthor = (p: PostRow, view: View) => view.viewerId !== undefined && view.viewerId === p.author_id;

/** A promoted-only post (made through the advertising interface) is seen only where it is promoted. */
const promotedOnly = (p: PostRow) => p.nullcast === 1;

export function nonPublicMetrics(p: PostRow, view: View) {
  if (!isAuthor(p, view)) return undefined;
  return { impression_count: p.impression_count, url_link_clicks: 0, user_profile_clicks: 0 };
}

function engagement(p: PostRow) {
  return {
    impression_count: p.impression_count,
    like_count: p.like_count,
    reply_count: p.reply_count,
    retweet_count: p.retweet_count,
    url_link_clicks: 0,
    user_profile_clicks: 0,
  };
}

const nothing = { impression_count: 0, like_count: 0, reply_count: 0, retweet_count: 0, url_link_clicks: 0, user_profile_clicks: 0 };

/** What promotion brought a post (src/ads/delivery/), by kind of event. */
export type PromotedCounts = Partial<Record<AdsDeliveryKind, number>>;

const promotedPart = (c: PromotedCounts) => ({
  impression_count: c.impression ?? 0,
  like_count: c.like ?? 0,
  reply_count: c.reply ?? 0,
  retweet_count: c.repost ?? 0,
  url_link_clicks: c.url_click ?? 0,
  user_profile_clicks: 0,
});

/** The post's own engagement, less what its promotion brought. */
export function organicMetrics(p: PostRow, view: View, promoted: PromotedCounts | undefined) {
  if (!isAuthor(p, view)) return undefined;
  if (promotedOnly(p)) return nothing;
  const all = engagement(p);
  const paid = promotedPart(promoted ?? {});
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k, Math.max(0, v - paid[k as keyof typeof paid])])) as typeof all;
}

/**
 * Only a promoted post has promoted metrics: a promoted-only post's engagement is all promoted;
 * a post of the timelines that a line item delivered has what delivery recorded.
 */
export function promotedMetrics(p: PostRow, view: View, promoted: PromotedCounts | undefined) {
  if (!isAuthor(p, view)) return undefined;
  if (promotedOnly(p)) return engagement(p);
  return promoted ? promotedPart(promoted) : undefined;
}
