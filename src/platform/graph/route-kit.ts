import { Type, type TProperties } from '@sinclair/typebox';
import type { RouteAuth } from '../../auth/authenticate.js';
import { listParam, type ResourceDeclaration } from '../../http/fields.js';
import type { MaxResultsRange } from '../../http/pagination.js';
import { parseSelection, selectionParams, type ExpansionDeclarations } from '../expansions.js';
import { EXCLUDE, parsePage, parseTimePage, type ListRequest, type TimePageRequest } from './query.js';
import { ID_PATTERN_TEXT } from '../../http/params.js';

/** Small builders for the graph's route schemas, so each route reads as its interface. */

export const userAuth = (...scopes: string[]): RouteAuth => ({ schemes: ['user'], scopes });
export const userOrAppAuth = (...scopes: string[]): RouteAuth => ({ schemes: ['user', 'app'], scopes });

export const idString = (description?: string) => Type.String({ pattern: ID_PATTERN_TEXT, ...(description ? { description } : {}) });

/** Path parameters that are platform ids (^[0-9]{1,19}$). */
export function idParams<K extends string>(...names: K[]) {
  return Type.Object(Object.fromEntries(names.map((n) => [n, idString()])) as Record<K, ReturnType<typeof idString>>);
}

/** max_results (the endpoint's range) and pagination_token. */
export function pageParams(range: MaxResultsRange, tokenName = 'pagination_token'): TProperties {
  return {
    max_results: Type.Optional(Type.Integer({ minimum: range.min, maximum: range.max, description: `${range.min} to ${range.max}; default ${range.default}.` })),
    [tokenName]: Type.Optional(Type.String({ minLength: 1, description: 'The next_token of the previous page.' })),
  };
}

export const excludeParam = listParam(EXCLUDE, 'A comma separated list of the types of posts to exclude.');

/** since_id, until_id, start_time, end_time and exclude of the post timelines. */
export const timeWindowParams: TProperties = {
  since_id: Type.Optional(idString('Only posts newer than this id.')),
  until_id: Type.Optional(idString('Only posts older than this id.')),
  start_time: Type.Optional(Type.String({ description: 'Oldest creation time, inclusive (RFC 3339).' })),
  end_time: Type.Optional(Type.String({ description: 'Newest creation time, exclusive (RFC 3339).' })),
  exclude: excludeParam,
};

/** A strict querystring object. */
export const query = <T extends TProperties>(properties: T) => Type.Object(properties, { additionalProperties: false });

/** The querystring of a list endpoint: max_results in `range`, pagination_token and the field selection of `expansions`. */
export const listQuery = (range: MaxResultsRange, expansions: ExpansionDeclarations<any>, ...primary: ResourceDeclaration<any, any>[]) =>
  query({ ...pageParams(range), ...selectionParams(expansions, ...primary) });

/** Parses what listQuery declares: the selection and a page of a list keyed by id. */
export function listRequest(q: Record<string, unknown>, range: MaxResultsRange, expansions: ExpansionDeclarations<any>): ListRequest {
  return { selection: parseSelection(q, expansions), page: parsePage(q, range) };
}

/** Parses what listQuery declares: the selection and a page of a list keyed by (time, id). */
export function timeListRequest(q: Record<string, unknown>, range: MaxResultsRange, expansions: ExpansionDeclarations<any>): ListRequest<TimePageRequest> {
  return { selection: parseSelection(q, expansions), page: parseTimePage(q, range) };
}
