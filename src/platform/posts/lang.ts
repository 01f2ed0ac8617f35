import { createRequire } from 'node:module';

/** tinyld reads its language profiles when loaded (about 300 ms): loaded at the first post, not at every start. */
let tinyld: typeof import('tinyld') | undefined;
const detectAll = (text: string) => (tinyld ??= createRequire(import.meta.url)('tinyld') as typeof import('tinyld')).detectAll(text);
import type { PostEntities } from './entities.js';

/**
 * A post's `lang` (issue 34), as the public platform labels posts: the language of what the
 * text says, once links, mentions, hashtags and cashtags are set aside, as an ISO 639-1 code.
 * Language identification is tinyld, built for texts as short as posts (franc, tried first,
 * called 'A walrus in tweet names' Hausa).
 *
 * - `zxx` (no linguistic content): a post of media or links only;
 * - `qam`, `qht`, `qct`: mentions only, hashtags only, cashtags only;
 * - `und`: text too short, mixed, or in a language franc cannot tell.
 */

/** Fewer letters than this and no language can be told: und. */
const MIN_LETTERS = 4;
/** Fewer letters than this and only a sure guess counts (tinyld's accuracy of 0.5 or more). */
const SHORT_LETTERS = 15;

export function detectLang(text: string, entities: PostEntities, hasMedia: boolean): string {
  const spans = [
    ...(entities.urls ?? []).map((e) => ({ ...e, kind: 'url' })),
    ...(entities.mentions ?? []).map((e) => ({ ...e, kind: 'mention' })),
    ...(entities.hashtags ?? []).map((e) => ({ ...e, kind: 'hashtag' })),
    ...(entities.cashtags ?? []).map((e) => ({ ...e, kind: 'cashtag' })),
  ];
  // Entity offsets count code points.
  const chars = [...text];
  const covered = new Uint8Array(chars.length);
  for (const s of spans) covered.fill(1, s.start, Math.min(s.end, chars.length));
  const rest = chars
    .filter((_, i) => covered[i] === 0)
    .join('')
    .replace(/^RT\s*:?\s*/, '');
  const letters = rest.replace(/[^\p{L}]/gu, '');
  if (letters.length === 0) {
    const kinds = new Set(spans.map((s) => s.kind));
    if (kinds.size === 1 && !hasMedia) {
      const only = [...kinds][0];
      if (only === 'mention') return 'qam';
      if (only === 'hashtag') return 'qht';
      if (only === 'cashtag') return 'qct';
    }
    return kinds.size === 0 && !hasMedia ? 'und' : 'zxx';
  }
  // Scripts that name their language however short the text.
  if (/\p{Script=Hangul}/u.test(letters)) return 'ko';
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(letters)) return 'ja';
  const count = [...letters].length;
  if (count < MIN_LETTERS) return 'und';
  const [first, second] = detectAll(rest);
  if (!first) return 'und';
  // Too short to be sure ("Rename me" is not Spanish), or two languages as likely: und.
  if (count < SHORT_LETTERS && first.accuracy < 0.5) return 'und';
  if (second && second.accuracy >= first.accuracy * 0.9) return 'und';
  return first.lang;
}
