/**
 * The public platform's 'tweet' dialect (issue 15): every name the public platform spells with
 * 'tweet' (or 'retweet' where the spec says 'repost'), paired once with Plaza's name. Requests in
 * the dialect are translated to Plaza's names at the edge and their answers back
 * (src/http/dialect/translate.ts); the list is checked against
 * shared/reference/openapi-2.167.json by test/dialect/names.test.ts.
 */

/** Fixed path segments after /2/: /2/tweets/:id/retweeted_by is /2/posts/:id/reposted_by. */
export const PATH_SEGMENTS: ReadonlyArray<readonly [tweet: string, post: string]> = [
  ['tweets', 'posts'],
  ['quote_tweets', 'quote_posts'],
  ['retweeted_by', 'reposted_by'],
  ['retweets', 'reposts'],
  ['liked_tweets', 'liked_posts'],
];

/**
 * Names of query parameters, body fields, response fields, expansions and `*.fields` values. One
 * table for all of them: the public platform uses each name in the same sense wherever it appears.
 */
export const NAMES: ReadonlyArray<readonly [tweet: string, post: string]> = [
  // query parameters
  ['tweet.fields', 'post.fields'],
  ['like_with_tweet_author.fields', 'like_with_post_author.fields'],
  // fields, body fields and expansions
  ['tweet_id', 'post_id'],
  ['tweet_ids', 'post_ids'],
  ['source_tweet_id', 'source_post_id'],
  ['in_reply_to_tweet_id', 'in_reply_to_post_id'],
  // edit_options of POST /2/tweets (the public platform's documentation; 2.167 leaves it out)
  ['previous_tweet_id', 'previous_post_id'],
  ['quote_tweet_id', 'quote_post_id'],
  ['edit_history_tweet_ids', 'edit_history_post_ids'],
  ['referenced_tweets', 'referenced_posts'],
  ['referenced_tweets.id', 'referenced_posts.id'],
  ['referenced_tweets.id.author_id', 'referenced_posts.id.author_id'],
  ['referenced_tweets.id.attachments.media_keys', 'referenced_posts.id.attachments.media_keys'],
  ['attachments.media_source_tweet', 'attachments.media_source_post'],
  ['media_source_tweet_id', 'media_source_post_id'],
  ['note_tweet', 'note_post'],
  ['pinned_tweet_id', 'pinned_post_id'],
  ['most_recent_tweet_id', 'most_recent_post_id'],
  ['tweet_count', 'post_count'],
  ['total_tweet_count', 'total_post_count'],
  ['liked_tweet_id', 'liked_post_id'],
  ['liked_tweet_author_id', 'liked_post_author_id'],
  ['tweet_author_id', 'post_author_id'],
  ['retweeted', 'reposted'],
  // compliance edit events (PostEditComplianceSchema of the public description)
  ['tweet_edit', 'post_edit'],
  ['initial_tweet_id', 'initial_post_id'],
  ['edit_tweet_ids', 'edit_post_ids'],
  // includes.tweets, compliance events' `tweet`
  ['tweets', 'posts'],
  ['tweet', 'post'],
];

/**
 * Values that change with the dialect, by the member that holds them: the reference type of a
 * repost, the resource type of problems and partial errors.
 */
export const VALUES: Readonly<Record<string, ReadonlyArray<readonly [tweet: string, post: string]>>> = {
  type: [['retweeted', 'reposted']],
  resource_type: [['tweet', 'post']],
};

/** Phrases of Plaza's error messages that name the resource, as the public platform words them. */
export const PHRASES: ReadonlyArray<readonly [tweet: string, post: string]> = [
  ['Could not find tweet with', 'Could not find post with'],
];

/**
 * Names of the reference with 'tweet' in them that the table leaves out, and why (the names test
 * fails on any other name it does not find here or in the table).
 */
export const LEFT_OUT: Readonly<Record<string, string>> = {
  up_to_tweet_id: 'compliance scrub_geo events: Plaza already writes the public platform\'s names in compliance payloads',
  public_tweet_notice: 'label stream: the public platform\'s name, Plaza writes it as is',
  public_tweet_unviewable: 'label stream: the public platform\'s name, Plaza writes it as is',
  tweet_label_stream: 'connection endpoint names: Plaza already uses the public platform\'s names',
  tweets_compliance_stream: 'connection endpoint names: Plaza already uses the public platform\'s names',
  email_tweet: 'a metric of post analytics: Plaza keeps the public platform\'s metric names in analytics.fields (one vocabulary for both dialects)',
  quote_tweets: 'as a field, a metric of post analytics, kept as the public platform names it (the path segment is translated)',
  retweets: 'exclude=retweets is already Plaza\'s value (the path segment is translated)',
  tweet_image: 'media categories: the media service accepts tweet_* for post_* itself',
  tweet_gif: 'media categories: the media service accepts tweet_* for post_* itself',
  tweet_video: 'media categories: the media service accepts tweet_* for post_* itself',
  TweetVideo: 'media subtitles category: the subtitles service accepts TweetVideo for PostVideo itself',
  'tweet.read': 'OAuth 2.0 scopes: accepted as aliases by src/auth/flows/scopes.ts',
  'tweet.write': 'OAuth 2.0 scopes: accepted as aliases by src/auth/flows/scopes.ts',
  'tweet.moderate.write': 'OAuth 2.0 scopes: accepted as aliases by src/auth/flows/scopes.ts',
  Tweets: 'a tag name of the public description, not part of any request or answer',
};
