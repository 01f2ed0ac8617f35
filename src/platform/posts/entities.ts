/**
 * Entities parsed from a post's text, with start/end offsets in Unicode code points as on the
 * public platform: urls (with expanded and display forms), mentions, hashtags and cashtags.
 */
export interface PostEntities {
  urls?: Array<{ start: number; end: number; url: string; expanded_url: string; display_url: string }>;
  mentions?: Array<{ start: number; end: number; username: string }>;
  hashtags?: Array<{ start: number; end: number; tag: string }>;
  cashtags?: Array<{ start: number; end: number; tag: string }>;
}

const PATTERNS = {
  urls: /https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'}]/gu,
  mentions: /(?<![\p{L}\p{N}_@])@([A-Za-z0-9_]{1,15})(?![A-Za-z0-9_@])/gu,
  hashtags: /(?<![\p{L}\p{N}_&#])#([\p{L}\p{N}_]*\p{L}[\p{L}\p{N}_]*)/gu,
  cashtags: /(?<![\p{L}\p{N}_$])\$([A-Za-z]{1,6}(?:[._][A-Za-z]{1,2})?)(?![A-Za-z0-9_])/gu,
};

/** Code-point offset of a UTF-16 index within `text`. */
function codePoints(text: string, utf16Index: number): number {
  return [...text.slice(0, utf16Index)].length;
}

export function parseEntities(text: string): PostEntities {
  const entities: PostEntities = {};
  const span = (m: RegExpMatchArray) => {
    const start = codePoints(text, m.index!);
    return { start, end: start + [...m[0]].length };
  };
  const urls = [...text.matchAll(PATTERNS.urls)].map((m) => {
    const display = m[0].replace(/^https?:\/\/(www\.)?/, '');
    return { ...span(m), url: m[0], expanded_url: m[0], display_url: display.length > 26 ? `${display.slice(0, 25)}…` : display };
  });
  const inUrl = (index: number) => urls.some((u) => index >= u.start && index < u.end);
  const mentions = [...text.matchAll(PATTERNS.mentions)].map((m) => ({ ...span(m), username: m[1] })).filter((e) => !inUrl(e.start));
  const hashtags = [...text.matchAll(PATTERNS.hashtags)].map((m) => ({ ...span(m), tag: m[1] })).filter((e) => !inUrl(e.start));
  const cashtags = [...text.matchAll(PATTERNS.cashtags)].map((m) => ({ ...span(m), tag: m[1] })).filter((e) => !inUrl(e.start));
  if (urls.length) entities.urls = urls;
  if (mentions.length) entities.mentions = mentions;
  if (hashtags.length) entities.hashtags = hashtags;
  if (cashtags.length) entities.cashtags = cashtags;
  return entities;
}
