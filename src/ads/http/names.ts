import { translation } from '../../http/dialect/translate.js';

/**
 * The advertising interface's 'tweet' dialect: every name the public platform's Ads API (and its
 * SDKs) spells with 'tweet' or 'twitter' where spec 001 says 'post' or 'platform', paired once
 * with Plaza's name (shared/reference/ads.md). A request in the dialect is translated to Plaza's
 * names at the edge and its answer back (src/ads/http/dialect.ts).
 */

/** Path segments after /12/: /accounts/:id/promoted_tweets is /accounts/:id/promoted_posts. */
const SEGMENTS = [
  ['tweet', 'post'],
  ['tweets', 'posts'],
  ['promoted_tweets', 'promoted_posts'],
  ['scheduled_tweets', 'scheduled_posts'],
  ['draft_tweets', 'draft_posts'],
] as const;

/** Parameters and members of answers. */
const NAMES = [
  ['tweet_id', 'post_id'],
  ['tweet_ids', 'post_ids'],
  ['tweet_mode', 'post_mode'],
  ['tweet_type', 'post_type'],
  ['promoted_tweet_id', 'promoted_post_id'],
  ['promoted_tweet_ids', 'promoted_post_ids'],
  ['scheduled_tweet_id', 'scheduled_post_id'],
  ['scheduled_tweet_ids', 'scheduled_post_ids'],
  ['draft_tweet_id', 'draft_post_id'],
  ['draft_tweet_ids', 'draft_post_ids'],
  ['automatic_tweet_promotion', 'automatic_post_promotion'],
  ['first_cta_tweet', 'first_cta_post'],
  ['second_cta_tweet', 'second_cta_post'],
  ['third_cta_tweet', 'third_cta_post'],
  ['fourth_cta_tweet', 'fourth_cta_post'],
  ['tweet_volume', 'post_volume'],
  // Analytics metrics.
  ['retweets', 'reposts'],
  ['tweets_send', 'posts_send'],
] as const;

const PLACEMENTS = [
  ['ALL_ON_TWITTER', 'ALL_ON_PLATFORM'],
  ['TWITTER_PROFILE', 'PLATFORM_PROFILE'],
  ['TWITTER_REPLIES', 'PLATFORM_REPLIES'],
  ['TWITTER_SEARCH', 'PLATFORM_SEARCH'],
  ['TWITTER_TIMELINE', 'PLATFORM_TIMELINE'],
] as const;
const PRODUCT_TYPES = [['PROMOTED_TWEETS', 'PROMOTED_POSTS']] as const;

/** Values that change with the dialect, by the member (or parameter) that holds them. */
const VALUES = {
  product_type: PRODUCT_TYPES,
  placements: PLACEMENTS,
  placement: PLACEMENTS,
  entity: [
    ['PROMOTED_TWEET', 'PROMOTED_POST'],
    ['ORGANIC_TWEET', 'ORGANIC_POST'],
  ],
  media_category: [
    ['TWEET_IMAGE', 'POST_IMAGE'],
    ['TWEET_GIF', 'POST_GIF'],
    ['TWEET_VIDEO', 'POST_VIDEO'],
  ],
} as const;

/** The advertising interface's translations. */
export const adsTweetNames = translation({ segments: SEGMENTS, pathPrefix: '/', names: NAMES, values: VALUES, phrases: [] });

/** The tables, for the test that checks them against the public platform's names. */
export const ADS_DIALECT_TABLES = { segments: SEGMENTS, names: NAMES, values: VALUES };
