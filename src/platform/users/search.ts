import type { PlatformContext } from '../context.js';
import { decodePageToken, encodePageToken, parseMaxResults } from '../../http/pagination.js';
import { invalidParameter } from '../../http/params.js';
import { parseSelection, type Selection } from '../expansions.js';
import { renderUsers, type PageResult } from '../graph/render.js';
import type { View } from '../view.js';
import { userExpansions } from './service.js';
import { findUsersMatching } from './store.js';

const SEARCH_RANGE = { min: 1, max: 1000, default: 100 };

/** A users search, parsed from its query at the edge. */
export interface UserSearch {
  /** The whole query, and its words: each must be in the username, name or description. */
  text: string;
  words: readonly string[];
  maxResults: number;
  /** How many matches earlier pages showed (the next_token). */
  offset: number;
  selection: Selection;
}

/** Parses GET /2/users/search's query, max_results, next_token and selection; pages by `next_token`, as the reference names it. */
export function parseUserSearch(query: Record<string, unknown>): UserSearch {
  const selection = parseSelection(query, userExpansions);
  const maxResults = parseMaxResults(query.max_results, SEARCH_RANGE);
  const token = decodePageToken(query.next_token, 'next_token');
  const offset = token === undefined ? 0 : Number(token);
  if (!Number.isInteger(offset) || offset < 0 || offset > 1_000_000) throw invalidParameter('next_token', [String(query.next_token)], 'The `next_token` query parameter value is not a valid token');
  const text = String(query.query ?? '').trim();
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0) throw invalidParameter('query', [text], 'The `query` query parameter can not be blank');
  return { text, words, maxResults, offset, selection };
}

/** GET /2/users/search: users matching every word, best first. */
export async function searchUsers(ctx: PlatformContext, view: View, { text, words, maxResults, offset, selection }: UserSearch): Promise<PageResult> {
  const rows = await findUsersMatching(ctx.store.db, ctx.store.dialect, words, text, maxResults + 1, offset);
  const items = rows.slice(0, maxResults);
  const meta = { result_count: items.length, ...(rows.length > maxResults ? { next_token: encodePageToken(String(offset + maxResults)) } : {}) };
  return renderUsers(ctx, view, selection, items, meta);
}
