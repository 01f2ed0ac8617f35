import type { PlatformContext } from '../context.js';
import { appendEvent } from '../../events/log.js';
import { parseMaxResults } from '../../http/pagination.js';
import { parseSelectionText } from '../../http/fields.js';
import { invalidValue } from '../../http/params.js';
import { ProblemError, problems } from '../../http/problems.js';
import { compileMatcher, compileSql, parseQuery, QueryError, type MatchablePost, type QueryNode } from '../../query/index.js';
import { toJson, type DbOrTx } from '../../store/store.js';
import { resolveUsers, searchByRecency } from '../search/store.js';
import type { View } from '../view.js';
import { findNewsStory, insertNewsStory, newsStoriesUpdatedBetween, type NewsStoryRow } from './store.js';
import { NEWS_FIELD_NAMES, newsObject } from './wire.js';

/** Release history (spec 000 "Versioning"), Nov 19, 2025: the news endpoints. */
export const NEWS_SINCE = '2025-11-19';
export const NEWS_SEARCH_RANGES = { maxResults: { min: 1, max: 100, default: 10 }, maxAgeHours: { min: 1, max: 720, default: 168 } } as const;
export const NEWS_QUERY_MAX = 2048;
/** How many of the newest matching posts a story's cluster lists, and how far before the story it looks. */
const CLUSTER_SIZE = 20;
const CLUSTER_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;


/** Before the release-history entry that added them, the news endpoints do not exist. */
function requireReleased(ctx: PlatformContext): void {
  if (ctx.clock.now().toISOString().slice(0, 10) >= NEWS_SINCE) return;
  throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', 'The news endpoints arrive with the release of Nov 19, 2025.'));
}

/** A story the admin interface or the seed asked for that breaks a rule of createNewsStory (the message says which). */
export class InvalidNewsStory extends Error {
  override name = 'InvalidNewsStory';
}

export interface NewsContexts {
  topics?: string[];
  entities?: { events?: string[]; organizations?: string[]; people?: string[]; places?: string[]; products?: string[] };
  finance?: { tickers?: string[] };
  sports?: { teams?: string[] };
}

export interface NewStory {
  name: string;
  summary: string;
  /** Terms of the query language (a word, "a phrase", #tag, $TICKER, from:user...): the posts matching any of them form the cluster. */
  keywords: string[];
  category?: string;
  hook?: string;
  disclaimer?: string;
  contexts?: NewsContexts;
}

/** The reference's contexts shape, every list present. */
function normalContexts(c: NewsContexts = {}) {
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  return {
    topics: list(c.topics),
    entities: {
      events: list(c.entities?.events),
      organizations: list(c.entities?.organizations),
      people: list(c.entities?.people),
      places: list(c.entities?.places),
      products: list(c.entities?.products),
    },
    finance: { tickers: list(c.finance?.tickers) },
    sports: { teams: list(c.sports?.teams) },
  };
}

/** The query of a story's cluster: any of its keywords. */
function clusterQuery(keywords: readonly string[]): QueryNode {
  return parseQuery(keywords.map((k) => `(${k})`).join(' OR '));
}

/**
 * Creates a news story and appends its news.new Activity event in the same transaction (the
 * event's payload is the reference's NewsActivityResponsePayload: category, headline, hook,
 * summary; keyword filters match it). Called by the demo seed and the admin interface. A story
 * needs a name, a summary and 1 to 20 keywords, each a valid term of the query language.
 */
export async function createNewsStory(ctx: Pick<PlatformContext, 'ids' | 'clock' | 'store'> & Partial<Pick<PlatformContext, 'events'>>, input: NewStory, db: DbOrTx = ctx.store.db): Promise<NewsStoryRow> {
  const name = input.name?.trim() ?? '';
  const summary = input.summary?.trim() ?? '';
  if (name.length === 0 || name.length > 280) throw new InvalidNewsStory('A news story needs a name of 1 to 280 characters.');
  if (summary.length === 0 || summary.length > 2000) throw new InvalidNewsStory('A news story needs a summary of 1 to 2,000 characters.');
  const keywords = (input.keywords ?? []).map((k) => k.trim()).filter((k) => k.length > 0);
  if (keywords.length === 0 || keywords.length > 20) throw new InvalidNewsStory('A news story needs 1 to 20 keywords.');
  for (const keyword of keywords) {
    try {
      parseQuery(keyword);
    } catch (err) {
      if (err instanceof QueryError) throw new InvalidNewsStory(`The keyword ${JSON.stringify(keyword)} is not a term of the query language: ${err.message}`);
      throw err;
    }
  }
  const now = ctx.clock.now().toISOString();
  const row: NewsStoryRow = {
    id: ctx.ids.next(),
    name,
    category: input.category?.trim() || 'News',
    hook: input.hook?.trim() ?? '',
    summary,
    disclaimer: input.disclaimer?.trim() || null,
    keywords: toJson(keywords),
    contexts: toJson(normalContexts(input.contexts)),
    created_at: now,
    updated_at: now,
  };
  const write = async (tx: DbOrTx) => {
    await insertNewsStory(tx, row);
    await appendEvent(ctx, tx, { type: 'news.new', subject: row.id, payload: { category: row.category, headline: row.name, hook: row.hook, summary: row.summary } });
  };
  // Inside the caller's transaction when given one (the seed's); otherwise in one of its own.
  if (db.isTransaction) await write(db);
  else await db.transaction().execute(write);
  return row;
}

/** The newest posts (at most CLUSTER_SIZE) matching any of the story's keywords, through the search index, as the viewer may see them. */
async function clusterOf(ctx: PlatformContext, view: View, story: NewsStoryRow): Promise<string[]> {
  const keywords = JSON.parse(story.keywords) as string[];
  const where = compileSql(await resolveUsers(ctx.store.db, clusterQuery(keywords)), ctx.store.dialect);
  const now = ctx.clock.now();
  const rows = await searchByRecency(
    ctx.store.db,
    where,
    {
      startTime: new Date(Date.parse(story.created_at) - CLUSTER_LOOKBACK_MS).toISOString(),
      endTime: new Date(now.getTime() + 1).toISOString(),
      viewerId: view.viewerId,
      excludeReposts: true,
    },
    CLUSTER_SIZE,
  );
  return rows.map((r) => r.id);
}

/** news.fields, parsed by the routes. */
export function parseNewsFields(raw: string | undefined): ReadonlySet<string> {
  return parseSelectionText('news.fields', raw, NEWS_FIELD_NAMES);
}

async function render(ctx: PlatformContext, view: View, stories: readonly NewsStoryRow[], selected: ReadonlySet<string>): Promise<Record<string, unknown>[]> {
  const out = [];
  for (const story of stories) {
    const clusterPostIds = selected.has('cluster_posts_results') ? await clusterOf(ctx, view, story) : undefined;
    out.push(newsObject(story, selected, { clusterPostIds }));
  }
  return out;
}

/** GET /2/news/{id}. */
export async function lookupNews(ctx: PlatformContext, view: View, id: string, selected: ReadonlySet<string>): Promise<{ data: Record<string, unknown> }> {
  requireReleased(ctx);
  const story = await findNewsStory(ctx.store.db, id);
  if (!story) throw new ProblemError(404, problems.aboutBlank(404, 'Not Found', `Could not find news with id: [${id}].`));
  const [data] = await render(ctx, view, [story], selected);
  return { data };
}

/** A story as the in-memory matcher of the query language sees it: its words as the text, #keywords and $tickers as entities. */
function matchableStory(story: NewsStoryRow): MatchablePost {
  const keywords = JSON.parse(story.keywords) as string[];
  const contexts = normalContexts(JSON.parse(story.contexts) as NewsContexts);
  const contextWords = [...contexts.topics, ...Object.values(contexts.entities).flat(), ...contexts.finance.tickers, ...contexts.sports.teams];
  const tags = (prefix: string) => keywords.filter((k) => k.startsWith(prefix) && k.length > 1).map((k) => ({ tag: k.slice(1) }));
  return {
    id: story.id,
    text: [story.name, story.hook, story.summary, story.category, ...keywords, ...contextWords].join('\n'),
    authorId: '',
    authorUsername: '',
    authorName: '',
    authorDescription: '',
    authorLocation: '',
    authorVerified: false,
    inReplyToPostId: null,
    inReplyToUserId: null,
    inReplyToUsername: null,
    conversationId: story.id,
    quotedPostId: null,
    repostedPostId: null,
    repostedAuthorId: null,
    repostedAuthorUsername: null,
    lang: 'en',
    entities: { hashtags: tags('#'), cashtags: [...tags('$'), ...contexts.finance.tickers.map((tag) => ({ tag }))] },
    contextAnnotations: [],
    geo: null,
    mediaKeys: [],
    mediaTypes: [],
    likeCount: 0,
    replyCount: 0,
    repostCount: 0,
  };
}

/**
 * GET /2/news/search: stories updated within max_age_hours (1 to 720, default 168) whose text
 * matches `query` (1 to 2,048 characters of the query language), newest update first, at most
 * max_results (1 to 100, default 10).
 */
/** A news search, parsed from its query parameters by its route. */
export interface NewsSearch {
  ast: QueryNode;
  maxResults: number;
  maxAgeHours: number;
  selected: ReadonlySet<string>;
}

/** GET /2/news/search's query (1 to 2,048 characters of the query language), max_results, max_age_hours and news.fields. */
export function parseNewsSearch(query: { query?: string; max_results?: number; max_age_hours?: number; 'news.fields'?: string }): NewsSearch {
  const text = typeof query.query === 'string' ? query.query : '';
  const length = [...text].length;
  if (length < 1 || length > NEWS_QUERY_MAX) throw invalidValue('query', text, `The \`query\` query parameter value is ${length} characters long; it must be 1 to ${NEWS_QUERY_MAX} characters`);
  let ast: QueryNode;
  try {
    ast = parseQuery(text);
  } catch (err) {
    if (err instanceof QueryError) throw invalidValue('query', text, `There were errors processing your request: ${err.message} of the \`query\` query parameter`);
    throw err;
  }
  const maxResults = parseMaxResults(query.max_results, NEWS_SEARCH_RANGES.maxResults);
  const maxAgeHours = parseMaxResults(query.max_age_hours, NEWS_SEARCH_RANGES.maxAgeHours, 'max_age_hours');
  return { ast, maxResults, maxAgeHours, selected: parseNewsFields(query['news.fields']) };
}

export async function searchNews(ctx: PlatformContext, view: View, { ast, maxResults, maxAgeHours, selected }: NewsSearch): Promise<{ data?: Record<string, unknown>[]; meta: { result_count: number } }> {
  requireReleased(ctx);
  const now = ctx.clock.now();
  const candidates = await newsStoriesUpdatedBetween(ctx.store.db, new Date(now.getTime() - maxAgeHours * HOUR_MS).toISOString(), now.toISOString());
  const matches = compileMatcher(ast);
  const found = candidates.filter((s) => matches(matchableStory(s))).slice(0, maxResults);
  const data = await render(ctx, view, found, selected);
  return { data: data.length > 0 ? data : undefined, meta: { result_count: data.length } };
}
