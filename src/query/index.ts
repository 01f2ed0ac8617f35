/** The query language of search, counts, stream rules and keyword filters: parse once, then SQL or in-memory. */
export * from './ast.js';
export { parseQuery, QueryError, MAX_NEAR_WORDS, MAX_NEAR_DISTANCE } from './parse.js';
export { compileMatcher, compileFactsMatcher, MatchFacts, type MatchablePost } from './match.js';
export { compileSql, SqlCompiler, type SqlDialect } from './sql.js';
