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
  ].join('\n');
}
