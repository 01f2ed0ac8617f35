// Writes the platform interface's OpenAPI description, generated from the route schemas, to
// openapi/platform.json. A test fails when the served document and this copy differ, so every
// change to the interface shows in review: run `npm run openapi:write` after changing a route.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPlaza } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { coverageMarkdown } from './coverage.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const plaza = await startPlaza(loadConfig({ port: 0, adsPort: 0, adsSandboxPort: 0, proxyPort: 0, databaseUrl: ':memory:', seedDemo: false, logLevel: 'silent' }, {}));
try {
  const document = await (await fetch(`${plaza.urls.base_url}/2/openapi.json`)).json();
  const file = path.join(root, 'openapi', 'platform.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(root, file)}\n`);
  // The advertising interface's, from its production listener (the sandbox's differs only in title and the sandbox-only 200s).
  const ads = await (await fetch(`${plaza.urls.ads_url}/12/openapi.json`)).json();
  const adsFile = path.join(root, 'openapi', 'ads.json');
  fs.writeFileSync(adsFile, `${JSON.stringify(ads, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(root, adsFile)}\n`);
  // The coverage table needs the public description's list, which shared/ beside the project holds.
  const reference = path.join(root, '..', 'shared', 'reference', 'coverage.md');
  if (fs.existsSync(reference)) {
    const coverage = path.join(root, 'docs', 'coverage.md');
    fs.mkdirSync(path.dirname(coverage), { recursive: true });
    fs.writeFileSync(coverage, coverageMarkdown(fs.readFileSync(reference, 'utf8'), document));
    process.stdout.write(`wrote ${path.relative(root, coverage)}\n`);
  }
} finally {
  await plaza.close();
}
