/**
 * The clients of bench/worlds.ts's 16-worker scenario, on a thread of their own (as a test
 * suite's workers are processes of their own): the scenarios' own work (signing, fetch, parsing)
 * does not share Plaza's event loop. Given the worlds, runs one scenario per world at once and
 * posts back the wall time and what each saw of other worlds.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CredentialsFile } from '../src/seed/credentials.js';
import { call } from '../test/support/server.js';
import { worldScenario } from '../test/support/world-scenario.js';

const { baseUrl, adminToken, worlds } = workerData as { baseUrl: string; adminToken: string; worlds: Array<{ id: string; credentials: CredentialsFile }> };
const admin = async (method: string, p: string, body?: unknown) => {
  const res = await call(baseUrl, p, { method, auth: { bearer: adminToken }, ...(body === undefined ? {} : { body }) });
  return { status: res.status, text: res.text };
};
const started = performance.now();
const results = await Promise.all(worlds.map((w) => worldScenario(w, admin)));
parentPort!.postMessage({ ms: performance.now() - started, foreign: results.reduce((n, r) => n + r.foreign.length, 0) });
