import path from 'node:path';
import { Session } from 'node:inspector/promises';
import fs from 'node:fs';
import { findSourceMap, SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Where the time of a profiled run went: the functions with the most self time. */
export interface ProfileSummary {
  seconds: number;
  samples: number;
  top: Array<{ name: string; where: string; percent: number }>;
}

export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  hitCount?: number;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Not work of Plaza's: the thread waiting for the network, or V8's own bookkeeping of the profile. */
const IDLE = new Set(['(idle)', '(root)', '(program)']);

/** Profiles this thread (Plaza's, in the benchmark) while `work` runs, and summarises the profile. */
export async function profileWhile<T>(work: () => Promise<T>, top = Number(process.env.BENCH_PROFILE_TOP ?? 15)): Promise<{ result: T; summary: ProfileSummary }> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const started = process.hrtime.bigint();
    const result = await work();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const { profile } = (await session.post('Profiler.stop')) as { profile: { nodes: ProfileNode[] } };
    return { result, summary: summarise(profile.nodes, seconds, top) };
  } finally {
    session.disconnect();
  }
}

/** The functions with the most self time in a V8 CPU profile's nodes (Profiler.stop, or a --cpu-prof file). */
export function summarise(nodes: ProfileNode[], seconds: number, top: number): ProfileSummary {
  const byFunction = new Map<string, { name: string; where: string; hits: number }>();
  let busy = 0;
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const name = functionName || '(anonymous)';
    if (hits === 0 || IDLE.has(name)) continue;
    busy += hits;
    const where = url ? original(url, lineNumber, columnNumber) : '(native)';
    const key = `${name} ${where}`;
    const entry = byFunction.get(key) ?? { name, where, hits: 0 };
    entry.hits += hits;
    byFunction.set(key, entry);
  }
  const ranked = [...byFunction.values()].sort((a, b) => b.hits - a.hits).slice(0, top);
  return { seconds, samples: busy, top: ranked.map((f) => ({ name: f.name, where: f.where, percent: busy ? (100 * f.hits) / busy : 0 })) };
}

/** Where a profiled function is: in the TypeScript source when its compiled file has a source map. */
function original(url: string, line: number, column = 0): string {
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  const own = ownSourceMap(file);
  const entry = (own ?? findSourceMap(file))?.findEntry(line, column);
  if (entry && 'originalSource' in entry && entry.originalSource) {
    // The bundle's own map names its sources relative to itself.
    const source = own ? path.resolve(path.dirname(file), entry.originalSource) : entry.originalSource;
    return `${shorten(source)}:${entry.originalLine + 1}`;
  }
  return `${shorten(url)}:${line + 1}`;
}

const ownSourceMaps = new Map<string, SourceMap | null>();

/**
 * The source map written beside a compiled file (dist/app.js.map). The bench runs under tsx, whose
 * loader hands Node a map of its own for every file it loads, dist/ included: one that maps the
 * bundle onto itself, so findSourceMap named lines of dist/app.js.
 */
function ownSourceMap(file: string): SourceMap | undefined {
  let map = ownSourceMaps.get(file);
  if (map === undefined) {
    const beside = `${file}.map`;
    map = path.isAbsolute(file) && fs.existsSync(beside) ? new SourceMap(JSON.parse(fs.readFileSync(beside, 'utf8'))) : null;
    ownSourceMaps.set(file, map);
  }
  return map ?? undefined;
}

/** A file URL as a path from the repository (node_modules/... or src/...). */
function shorten(url: string): string {
  const file = url.startsWith('file://') ? fileURLToPath(url) : url;
  return file.startsWith(ROOT) ? path.relative(ROOT, file) : file;
}
