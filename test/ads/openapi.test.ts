import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, after, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startAdsPlaza, type AdsKit } from './support.js';

/**
 * Issue #38 "Described": the ads listeners serve GET /12/openapi.json, generated from the route
 * declarations that validate the requests; the committed copy (openapi/ads.json) is checked for
 * drift as openapi/platform.json is.
 */
let k: AdsKit;
let production: any;
let sandbox: any;
let account: string;

before(async () => {
  k = await startAdsPlaza();
  production = (await (await fetch(`${k.plaza.urls.ads_url}/12/openapi.json`)).json()) as any;
  sandbox = (await (await fetch(`${k.plaza.urls.ads_sandbox_url}/12/openapi.json`)).json()) as any;
  account = (await k.sandboxSetup('ada')).account;
});
after(() => k.plaza.close());

test('the served description equals the committed openapi/ads.json (run `npm run openapi:write` after changing an ads route)', () => {
  const committed = JSON.parse(fs.readFileSync(new URL('../../openapi/ads.json', import.meta.url), 'utf8'));
  assert.deepEqual(production, committed);
});

test('every declared route is an operation, with its path variables and every declared parameter (required as declared, enumerations and ranges from the declaration)', () => {
  assert.equal(production.openapi, '3.1.0');
  const posts = production.paths['/12/accounts/{account_id}/posts'].get;
  const param = (op: any, name: string) => op.parameters.find((p: any) => p.name === name);
  assert.deepEqual(param(posts, 'account_id'), { name: 'account_id', in: 'path', required: true, schema: { type: 'string' } });
  assert.deepEqual(param(posts, 'post_type'), { name: 'post_type', in: 'query', required: true, schema: { type: 'string', enum: ['DRAFT', 'PUBLISHED', 'SCHEDULED'] } });
  assert.deepEqual(param(posts, 'count').schema, { type: 'integer', minimum: 1, maximum: 1000, default: 200 });
  assert.equal(param(posts, 'count').required, false, 'a parameter with a default is not required');
  const promoted = production.paths['/12/accounts/{account_id}/promoted_posts'].post;
  assert.deepEqual(param(promoted, 'post_ids').schema, { type: 'array', items: { type: 'string', pattern: '^[0-9]{1,19}$' }, minItems: 1, maxItems: 50 });
  assert.equal(param(promoted, 'post_ids').explode, false, 'lists are comma-separated');
  // Sandbox-only operations: described on both, answered 405 on production.
  const create = production.paths['/12/accounts'].post;
  assert.ok(create.responses['405'] && !create.responses['200']);
  assert.ok(sandbox.paths['/12/accounts'].post.responses['200']);
  const operations = Object.values<any>(production.paths).flatMap((ops) => Object.values<any>(ops));
  assert.equal(new Set(operations.map((op) => op.operationId)).size, operations.length, 'operation ids are unique');
  assert.ok(operations.length > 100, `${operations.length} operations`);
});

test('a sample answer of every GET list of an account validates against the description, asked with only the required parameters it names', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // Each operation's answer schema, its references resolved within the description's components.
  const answerOf = (op: any) => ajv.compile({ ...op.responses['200'].content['application/json'].schema, components: sandbox.components });
  let asked = 0;
  let typed = 0;
  for (const [path, ops] of Object.entries<any>(sandbox.paths)) {
    const op = ops.get;
    if (!op) continue;
    const variables = op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name);
    if (variables.join() !== 'account_id') continue;
    const query: Record<string, string> = {};
    let answerable = true;
    for (const p of op.parameters.filter((x: any) => x.in === 'query' && x.required)) {
      const values = p.schema.enum ?? p.schema.items?.enum;
      if (values) query[p.name] = String(values[0]);
      else answerable = false;
    }
    if (!answerable) continue;
    const res = await k.sandbox.get(path.replace('{account_id}', account).replace(/^\/12/, '/12'), { query });
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    const valid = answerOf(op);
    assert.ok(valid(res.body), `${path}: ${JSON.stringify(valid.errors)}`);
    asked++;
    if (JSON.stringify(op.responses['200']).includes('"data"')) typed++;
  }
  assert.ok(asked >= 20, `${asked} lists asked`);
  assert.ok(typed >= 4, `${typed} of them with their entity's schema`);
});

test('entities are declared once and closed: an answer with a field the declaration lacks, or without one it names, does not validate', async () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const campaignSchema = sandbox.components.schemas.Campaign;
  assert.equal(campaignSchema.additionalProperties, false);
  const valid = ajv.compile({ ...campaignSchema, components: sandbox.components });
  const list = await k.sandbox.get(`/12/accounts/${account}/campaigns`);
  const campaign: Record<string, unknown> = (list.body.data as Array<Record<string, unknown>>)[0]!;
  assert.ok(valid(campaign), JSON.stringify(valid.errors));
  assert.equal(valid({ ...campaign, surprise: 1 }), false);
  const { servable: _s, ...without } = campaign;
  assert.equal(valid(without), false);
  const get = sandbox.paths['/12/accounts/{account_id}/campaigns/{campaign_id}'].get;
  const one = await k.sandbox.get(`/12/accounts/${account}/campaigns/${campaign.id}`);
  const answer = ajv.compile({ ...get.responses['200'].content['application/json'].schema, components: sandbox.components });
  assert.ok(answer(one.body), JSON.stringify(answer.errors));
});
