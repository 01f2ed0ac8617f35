import { fromJson } from '../../store/store.js';
import type { NewsStoryRow } from './store.js';

/** What a news object shows beyond its row: the ids of its cluster, when selected. */
export interface NewsView {
  clusterPostIds?: readonly string[];
}

/**
 * The news object (shared/reference S167 News, and spec 000's last_updated_at_ms). The defaults
 * are what the public platform's documented answer shows with any news.fields: id, name,
 * category, hook and summary. Like the community, it has no problem resource type, so it is
 * selected through its own small table rather than a ResourceDeclaration.
 */
export const NEWS_DEFAULTS: readonly string[] = ['id', 'name', 'category', 'hook', 'summary'];
export const newsFields: Readonly<Record<string, (s: NewsStoryRow, view: NewsView) => unknown>> = {
  id: (s) => s.id,
  name: (s) => s.name,
  category: (s) => s.category,
  hook: (s) => s.hook,
  summary: (s) => s.summary,
  disclaimer: (s) => s.disclaimer ?? undefined,
  contexts: (s) => fromJson(s.contexts) ?? {},
  keywords: (s) => fromJson<string[]>(s.keywords) ?? [],
  cluster_posts_results: (_s, view) => (view.clusterPostIds ?? []).map((post_id) => ({ post_id })),
  updated_at: (s) => s.updated_at,
  last_updated_at_ms: (s) => String(Date.parse(s.updated_at)),
};

export const NEWS_FIELD_NAMES = Object.keys(newsFields).sort();

export function newsObject(story: NewsStoryRow, selected: ReadonlySet<string>, view: NewsView): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, get] of Object.entries(newsFields)) {
    if (!selected.has(name) && !NEWS_DEFAULTS.includes(name)) continue;
    const value = get(story, view);
    if (value !== undefined) out[name] = value;
  }
  return out;
}
