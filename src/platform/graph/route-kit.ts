import { Type, type TProperties } from '@sinclair/typebox';
import type { RouteAuth } from '../../auth/authenticate.js';
import type { MaxResultsRange } from '../../http/pagination.js';
import { ID_PATTERN_TEXT } from '../../http/params.js';

/** Small builders for the graph's route schemas, so each route reads as its interface. */

export const userAuth = (...scopes: string[]): RouteAuth => ({ schemes: ['user'], scopes });
export const userOrAppAuth = (...scopes: string[]): RouteAuth => ({ schemes: ['user', 'app'], scopes });

export const idString = (description?: string) => Type.String({ pattern: ID_PATTERN_TEXT, ...(description ? { description } : {}) });

/** Path parameters that are platform ids (^[0-9]{1,19}$). */
export function idParams<K extends string>(...names: K[]) {
  return Type.Object(Object.fromEntries(names.map((n) => [n, idString()])) as Record<K, ReturnType<typeof idString>>);
}

/** A comma-separated *.fields or expansions parameter. */
export const fieldsParam = (names: string) => Type.Optional(Type.String({ description: `Comma-separated ${names}.` }));

/** max_results (the endpoint's range) and pagination_token. */
export function pageParams(range: MaxResultsRange, tokenName = 'pagination_token'): TProperties {
  return {
    max_results: Type.Optional(Type.Integer({ minimum: range.min, maximum: range.max, description: `${range.min} to ${range.max}; default ${range.default}.` })),
    [tokenName]: Type.Optional(Type.String({ minLength: 1, description: 'The next_token of the previous page.' })),
  };
}

/** since_id, until_id, start_time, end_time and exclude of the post timelines. */
export const timeWindowParams: TProperties = {
  since_id: Type.Optional(idString('Only posts newer than this id.')),
  until_id: Type.Optional(idString('Only posts older than this id.')),
  start_time: Type.Optional(Type.String({ description: 'Oldest creation time, inclusive (RFC 3339).' })),
  end_time: Type.Optional(Type.String({ description: 'Newest creation time, exclusive (RFC 3339).' })),
  exclude: Type.Optional(Type.String({ description: 'Comma-separated: replies, retweets.' })),
};

/** A strict querystring object. */
export const query = <T extends TProperties>(properties: T) => Type.Object(properties, { additionalProperties: false });
