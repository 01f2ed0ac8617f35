import { createRequire } from 'node:module';

/** twitter-text (with its polyfills) is loaded at the first long text, not at every start. */
let twitterText: typeof import('twitter-text') | undefined;
const parseTweet = (text: string) => (twitterText ??= createRequire(import.meta.url)('twitter-text') as typeof import('twitter-text')).parseTweet(text);

/** The public platform's limit of a post's text, weighted as it counts (twitter-text), before the rest moves to note_post. */
export const SHORT_POST_WEIGHT = 280;

/**
 * The part of a text the public platform shows in `text`: all of it, or, over 280 weighted
 * characters (CJK characters weigh 2, a link 23: twitter-text's count), the characters up to 280.
 * A text of 140 UTF-16 units or fewer weighs at most 280 unless it holds links: it is not parsed.
 */
export function shownText(text: string): string {
  if (text.length <= SHORT_POST_WEIGHT / 2 && !text.includes('.')) return text;
  const parsed = parseTweet(text);
  return parsed.weightedLength <= SHORT_POST_WEIGHT ? text : text.slice(0, parsed.validRangeEnd + 1);
}
