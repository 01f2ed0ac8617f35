import type { PostEntities } from './entities.js';

/**
 * A post's context_annotations (issue 34), from a small built-in entity list: each entity is
 * named by words (and hashtags) that, found in the text, annotate the post with it under its
 * domain. Domains and the well-known entities carry the public platform's own ids (from its
 * documentation's examples); the other entities are Plaza's, with ids of Plaza's own
 * (16000000000000000xx, a range the public platform's entity ids do not use). Search and
 * filtered-stream rules select by them (`context:46.781974596752842752`, `entity:"Twitter"`).
 */

interface Domain {
  id: string;
  name: string;
  description: string;
}

const BRAND_CATEGORY: Domain = { id: '46', name: 'Brand Category', description: 'Categories within Brand Verticals that narrow down the scope of Brands' };
const BRAND: Domain = { id: '47', name: 'Brand', description: 'Brands and Companies' };
const INTERESTS: Domain = { id: '131', name: 'Unified Twitter Taxonomy', description: 'A taxonomy of user interests. ' };

interface Known {
  domain: Domain;
  entity: { id: string; name: string };
  words: readonly string[];
}

const KNOWN: readonly Known[] = [
  { domain: BRAND_CATEGORY, entity: { id: '781974596752842752', name: 'Services' }, words: ['twitter', 'tweet', 'tweets', 'x.com'] },
  { domain: BRAND, entity: { id: '10045225402', name: 'Twitter' }, words: ['twitter', 'tweet', 'tweets', 'x.com'] },
  { domain: INTERESTS, entity: { id: '1600000000000000001', name: 'Music' }, words: ['music', 'song', 'songs', 'album', 'concert'] },
  { domain: INTERESTS, entity: { id: '1600000000000000002', name: 'Coffee' }, words: ['coffee', 'café', 'cafe', 'espresso'] },
  { domain: INTERESTS, entity: { id: '1600000000000000003', name: 'Weather' }, words: ['weather', 'rain', 'sunny', 'snow', 'forecast'] },
  { domain: INTERESTS, entity: { id: '1600000000000000004', name: 'Software development' }, words: ['code', 'coding', 'programming', 'engineering', 'software', 'api'] },
  { domain: INTERESTS, entity: { id: '1600000000000000005', name: 'Football' }, words: ['football', 'soccer', 'goal', 'match'] },
  { domain: INTERESTS, entity: { id: '1600000000000000006', name: 'Photography' }, words: ['photo', 'photography', 'camera'] },
  { domain: INTERESTS, entity: { id: '1600000000000000007', name: 'Trains' }, words: ['train', 'trains', 'railway'] },
];

const BY_WORD = new Map<string, Known[]>();
for (const k of KNOWN) for (const w of k.words) BY_WORD.set(w, [...(BY_WORD.get(w) ?? []), k]);

export interface ContextAnnotation {
  domain: Domain;
  entity: { id: string; name: string };
}

export function contextAnnotationsOf(text: string, entities: PostEntities): ContextAnnotation[] {
  const words = new Set([
    ...(text.toLowerCase().match(/[\p{L}\p{N}.]+/gu) ?? []).map((w) => w.replace(/^\.+|\.+$/g, '')),
    ...(entities.hashtags ?? []).map((h) => h.tag.toLowerCase()),
  ]);
  const found = new Set<Known>();
  for (const word of words) for (const k of BY_WORD.get(word) ?? []) found.add(k);
  return KNOWN.filter((k) => found.has(k)).map((k) => ({ domain: k.domain, entity: k.entity }));
}
