import { REFERENCE_ERRATA } from './reference-errata.js';

// docs/coverage.md: every operation of the public description (shared/reference/coverage.md's
// table, 'tweet' already renamed to 'post') and whether Plaza serves it, measured as that table
// was: the operation is listed in Plaza's own OpenAPI description. Path parameters are compared by
// position, not name ({id} and {post_id} are the same segment).

const ROW = /^\| ([^|]+) \| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| ([^|]+) \| ([^|]+) \|$/;

const shape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/** The served operations of an OpenAPI document, as "METHOD shape". */
function served(document: { paths: Record<string, Record<string, unknown>> }): Set<string> {
  const out = new Set<string>();
  for (const [path, operations] of Object.entries(document.paths)) for (const method of Object.keys(operations)) out.add(`${method.toUpperCase()} ${shape(path)}`);
  return out;
}

export function coverageMarkdown(reference: string, document: { paths: Record<string, Record<string, unknown>> }): string {
  const ours = served(document);
  const rows = reference
    .split('\n')
    .map((line) => ROW.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map(([, tag, method, path, operationId]) => ({ tag: tag.trim(), method, path, operationId: operationId.trim(), served: ours.has(`${method} ${shape(path)}`) }));
  const count = rows.filter((r) => r.served).length;
  return [
    '# Coverage of the public description',
    '',
    `Every operation of the public platform's OpenAPI description 2.167 ('tweet' renamed to 'post'), and whether`,
    `Plaza serves it: listed in Plaza's own description (\`/2/openapi.json\`, committed as \`openapi/platform.json\`).`,
    `${rows.length} operations; ${count} served. Written by \`npm run openapi:write\`; a test fails when it is out of date.`,
    '',
    '| Tag | Method | Path (renamed) | operationId | Served |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.tag} | ${r.method} | \`${r.path}\` | ${r.operationId} | ${r.served ? 'yes' : 'no'} |`),
    '',
    '## Answers against the public description, in the tweet dialect',
    '',
    '`test/dialect/reference-answers.test.ts` calls every GET operation of 2.167 by its live path (`/2/tweets/...`) as an app',
    'in the tweet dialect, with every field and expansion 2.167 lists, and validates the answer against the 200 response',
    '2.167 declares, read with the live names: members 2.167 spells with `post` (`post_count`, `total_post_count`) as',
    'the platform answers them (`tweet_count`), and problem types on `api.twitter.com` instead of `api.x.com`.',
    '',
    'Places where 2.167 itself is wrong (the only failures the test allows; `scripts/reference-errata.ts`):',
    '',
    ...(Object.keys(REFERENCE_ERRATA).length === 0 ? ['None.'] : Object.entries(REFERENCE_ERRATA).map(([path, why]) => `- \`GET ${path}\`: ${why}`)),
    '',
  ].join('\n');
}
