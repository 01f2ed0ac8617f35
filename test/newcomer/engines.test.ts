import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

/**
 * `engines` in package.json, the README and the dependencies agree: the running Node (CI's) is
 * one that package.json accepts, the README names the same minimum, and every installed
 * dependency accepts it too, except those listed here with the reason they work anyway.
 */

const repo = fileURLToPath(new URL('../..', import.meta.url));
const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repo, file), 'utf8'));

/** Dependencies whose `engines` exclude Node 20 but which Plaza uses on it, and why that is sound. */
const KNOWN_NARROW: Record<string, string> = {
  // cookie 2 declares >=22 but its CommonJS build uses nothing newer than Node 20; @fastify/cookie and
  // light-my-request call only parseCookie/stringifySetCookie, which the session and page tests exercise.
  'node_modules/cookie': 'works on Node 20 (covered by test/web and test/newcomer sign-in tests)',
  // macOS-only optional dependency, never installed on Linux.
  'node_modules/fsevents': 'optional, macOS only',
};

type Version = [number, number, number];
const parse = (v: string): Version => {
  const [a = 0, b = 0, c = 0] = v.replace(/^v/, '').split('.').map((x) => (/^\d+$/.test(x) ? Number(x) : 0));
  return [a, b, c];
};
const cmp = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** A small reading of the engines ranges found in the lockfile: `||`, `>=`, `^`, `N.x`, `N.*`, `*`, and space-joined conjunctions. */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alt) => {
    const parts = alt.trim().replace(/>=\s+/g, '>=').split(/\s+/).filter(Boolean);
    if (parts.length === 0) return true;
    return parts.every((p) => {
      if (p === '*' || p === 'x') return true;
      if (p.startsWith('>=')) return cmp(v, parse(p.slice(2))) >= 0;
      if (p.startsWith('>')) return cmp(v, parse(p.slice(1))) > 0;
      if (p.startsWith('<=')) return cmp(v, parse(p.slice(2))) <= 0;
      if (p.startsWith('<')) return cmp(v, parse(p.slice(1))) < 0;
      if (p.startsWith('^')) {
        const low = parse(p.slice(1));
        return v[0] === low[0] && cmp(v, low) >= 0;
      }
      const m = /^(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(p);
      if (!m) throw new Error(`unread engines range part "${p}" in "${range}"`);
      if (Number(m[1]) !== v[0]) return false;
      return m[2] === undefined || m[2] === 'x' || m[2] === '*' || Number(m[2]) === v[1];
    });
  });
}

test('the range reader reads the lockfile forms', () => {
  assert.equal(satisfies('20.20.2', '>=20.19'), true);
  assert.equal(satisfies('20.18.0', '>=20.19'), false);
  assert.equal(satisfies('20.20.2', '20.x || 22.x'), true);
  assert.equal(satisfies('20.20.2', '>=22'), false);
  assert.equal(satisfies('20.20.2', '^16 || ^18 || >=20'), true);
  assert.equal(satisfies('20.20.2', '10.* || >= 12.*'), true);
});

test('package.json engines accepts the Node running the tests, and the README names the same minimum', () => {
  const range: string = readJson('package.json').engines.node;
  assert.equal(range, '>=20.19');
  assert.ok(satisfies(process.versions.node, range), `Node ${process.versions.node} is outside engines ${range}`);
  const readme = fs.readFileSync(path.join(repo, 'README.md'), 'utf8');
  assert.match(readme, /Node 20\.19 or later/);
});

test('every installed dependency accepts the minimum Node of engines, except the known ones listed with their reason', () => {
  const lock = readJson('package-lock.json') as { packages: Record<string, { engines?: { node?: string }; optional?: boolean }> };
  const minimum = '20.19.0';
  const narrow = Object.entries(lock.packages)
    .filter(([name, p]) => name !== '' && typeof p.engines?.node === 'string' && !satisfies(minimum, p.engines.node))
    .map(([name]) => name)
    .filter((name) => !(name in KNOWN_NARROW));
  assert.deepEqual(narrow, [], 'dependencies that refuse Node 20.19: raise engines or list them with a reason');
});
