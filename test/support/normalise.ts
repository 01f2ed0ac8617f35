/**
 * An answer's body with what varies from one run to the next replaced by placeholders, so a test
 * compares the whole of it and a field that appears or goes missing fails it (the habit of the
 * atproto tests):
 *
 * - ids: platform ids (decimal strings of 10 to 19 digits) and media keys (`3_123...`) become
 *   `<id:1>`, `<id:2>` ... by first appearance, so the same id is the same placeholder throughout
 *   the body and relations (a post's author_id and its author's id) still show;
 * - times: ISO 8601 instants become `<time>`, and the public platform's v1.1 form
 *   (`Tue Aug 27 22:22:12 +0000 2019`) `<v1-time>`;
 * - values the test names (`{ [ada.id]: 'ada' }`) become `<ada>` wherever they appear whole.
 *
 * Ads ids (short base-36 strings) are not told from other words: name them in `known`.
 */
export function normalise<T = unknown>(body: T, known: Record<string, string> = {}): T {
  const ids = new Map<string, string>();
  const idOf = (value: string) => {
    let placeholder = ids.get(value);
    if (!placeholder) ids.set(value, (placeholder = `<id:${ids.size + 1}>`));
    return placeholder;
  };
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    if (typeof value !== 'string') return value;
    if (value in known) return `<${known[value]}>`;
    if (ISO_TIME.test(value)) return '<time>';
    if (V1_TIME.test(value)) return '<v1-time>';
    if (ID.test(value) || MEDIA_KEY.test(value)) return idOf(value);
    return value;
  };
  return walk(body) as T;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const V1_TIME = /^[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2} \+0000 \d{4}$/;
const ID = /^\d{10,19}$/;
const MEDIA_KEY = /^\d+_\d{10,19}$/;
