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

export function organicMetrics(p: PostRow, view: View) {
  if (!isAuthor(p, view)) return undefined;
  return promotedOnly(p) ? nothing : engagement(p);
}

/** Only a promoted post has promoted metrics. */
export function promotedMetrics(p: PostRow, view: View) {
  if (!isAuthor(p, view) || !promotedOnly(p)) return undefined;
  return engagement(p);
}
