/** Targeting types and operators (shared/reference/ads.md §3). */
export const TARGETING_TYPES = [
  'AGE', 'DEVICE', 'EVENT', 'CAMPAIGN_ENGAGEMENT', 'CAMPAIGN_ENGAGEMENT_LOOKALIKE', 'CONVERSATION', 'ENGAGEMENT_TYPE', 'FOLLOWERS_OF_USER',
  'GENDER', 'INTEREST', 'LANGUAGE', 'LIVE_TV_EVENT', 'LOCATION', 'NETWORK_ACTIVATION_DURATION', 'NETWORK_OPERATOR', 'PLATFORM',
  'PLATFORM_VERSION', 'SIMILAR_TO_FOLLOWERS_OF_USER', 'TV_SHOW', 'USER_ENGAGEMENT', 'USER_ENGAGEMENT_LOOKALIKE', 'WIFI_ONLY',
  'BROAD_KEYWORD', 'EXACT_KEYWORD', 'PHRASE_KEYWORD', 'UNORDERED_KEYWORD',
  'CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED',
  'APP_STORE_CATEGORY', 'APP_STORE_CATEGORY_LOOKALIKE',
  'APP_LIST',
] as const;
export type TargetingType = (typeof TARGETING_TYPES)[number];

export const OPERATOR_TYPES = ['EQ', 'NE', 'GTE', 'LT'] as const;

export const KEYWORD_TYPES: readonly string[] = ['BROAD_KEYWORD', 'EXACT_KEYWORD', 'PHRASE_KEYWORD', 'UNORDERED_KEYWORD'];
export const FOLLOWER_TYPES: readonly string[] = ['FOLLOWERS_OF_USER', 'SIMILAR_TO_FOLLOWERS_OF_USER'];
export const AUDIENCE_TYPES: readonly string[] = ['CUSTOM_AUDIENCE', 'CUSTOM_AUDIENCE_EXPANDED'];

/**
 * Primary targeting types: who to reach (followers, keywords, interests, conversations, events,
 * TV, audiences, engagement). The others (location, language, age, gender, platform...) narrow.
 * An audience estimate needs at least one primary criterion.
 */
export const PRIMARY_TARGETING_TYPES: readonly string[] = [
  ...FOLLOWER_TYPES,
  ...KEYWORD_TYPES,
  ...AUDIENCE_TYPES,
  'INTEREST', 'CONVERSATION', 'EVENT', 'TV_SHOW', 'LIVE_TV_EVENT',
  'USER_ENGAGEMENT', 'USER_ENGAGEMENT_LOOKALIKE', 'CAMPAIGN_ENGAGEMENT', 'CAMPAIGN_ENGAGEMENT_LOOKALIKE',
];
