import { ProblemError, problems } from './problems.js';

/**
 * Parsing of the comma-separated query parameters of the platform interface, with the public
 * platform's invalid-request messages. The one place these messages are worded.
 */

export function splitList(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

export function invalidParameter(name: string, values: string[], message: string): ProblemError {
  return new ProblemError(400, problems.invalidParameter(name, values, message));
}

/** An invalid-request naming the parameter and the one value it was given (none when absent). */
export function invalidValue(name: string, value: unknown, message: string): ProblemError {
  return invalidParameter(name, value === undefined ? [] : [String(value)], message);
}

/** A comma-separated list whose every item must be one of `allowed`. */
export function parseEnumList(name: string, raw: string | undefined, allowed: readonly string[]): Set<string> {
  const items = splitList(raw);
  const unknown = items.filter((i) => !allowed.includes(i));
  if (unknown.length > 0) {
    throw new ProblemError(
      400,
      problems.invalidRequest(
        unknown.map((value) => ({
          message: `The \`${name}\` query parameter value [${value}] is not one of [${allowed.join(',')}]`,
          parameters: { [name]: [value] },
        })),
      ),
    );
  }
  return new Set(items);
}

export const ID_PATTERN = /^[0-9]{1,19}$/;
export const ID_PATTERN_TEXT = '^[0-9]{1,19}$';

/** One id (path or query) matching ^[0-9]{1,19}$. */
export function parseId(name: string, raw: string): string {
  if (!ID_PATTERN.test(raw)) {
    throw invalidParameter(name, [raw], `The \`${name}\` query parameter value [${raw}] does not match ${ID_PATTERN_TEXT}`);
  }
  return raw;
}

/** A comma-separated list of 1..max items, each checked by `pattern`; duplicates are folded. */
export function parseList(name: string,
  raw: string | undefined,
  opts: { max: number; pattern: RegExp; patternText: string },
): string[] {
  const items = splitList(raw);
  if (items.length === 0) {
    throw invalidParameter(name, [], `The \`${name}\` query parameter can not be empty`);
  }
  if (items.length > opts.max) {
    throw invalidParameter(name, [raw ?? ''], `The number of values in the \`${name}\` query parameter list [${items.length}] is not between 1 and ${opts.max}`);
  }
  const bad = items.filter((i) => !opts.pattern.test(i));
  if (bad.length > 0) {
    throw new ProblemError(
      400,
      problems.invalidRequest(
        bad.map((value) => ({
          message: `The \`${name}\` query parameter value [${value}] does not match ${opts.patternText}`,
          parameters: { [name]: [value] },
        })),
      ),
    );
  }
  return [...new Set(flatStrings(items))];
}

/**
 * Copies of these strings, each flat in memory. The items of a list parameter are slices of the
 * request's URL (V8 keeps a slice of 13 characters or more as a view into its parent), and every
 * Map lookup that compares such a slice with a key read from the store takes the engine's slow
 * path: measured alone, about twice the time of comparing two flat strings. A lookup's ids are
 * compared a dozen times each (src/platform/expansions.ts, entities.ts); one JSON round trip
 * copies them all.
 */
function flatStrings(items: readonly string[]): string[] {
  return JSON.parse(JSON.stringify(items)) as string[];
}

export function parseIdList(name: string, raw: string | undefined, max = 100): string[] {
  return parseList(name, raw, { max, pattern: ID_PATTERN, patternText: ID_PATTERN_TEXT });
}
