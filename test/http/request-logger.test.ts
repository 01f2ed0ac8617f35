import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { RequestLogger, requestLogger } from '../../src/http/log.js';

/** A pino logger at `level` writing its lines into an array, parsed. */
function capture(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level, base: { listener: 'platform' } }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

test("a request's logger writes what pino's child would, with the request's bindings, only at enabled levels", () => {
  const { logger, lines } = capture('warn');
  const log = requestLogger(logger, { reqId: 'r-1' }, {});
  assert.ok(log instanceof RequestLogger);
  log.info({ req: { url: '/2/posts/1' } }, 'incoming request');
  log.debug('not written');
  assert.equal(lines.length, 0, 'nothing below the level is written');
  assert.equal(log.isLevelEnabled('info'), false);
  assert.equal(log.isLevelEnabled('error'), true);
  log.warn({ detail: 'x' }, 'slow client');
  log.error(new Error('boom'));
  assert.equal(lines.length, 2);
  assert.deepEqual([lines[0].reqId, lines[0].listener, lines[0].msg, lines[0].detail], ['r-1', 'platform', 'slow client', 'x']);
  assert.equal(lines[1].reqId, 'r-1');
  assert.equal((lines[1].err as { message: string }).message, 'boom');

  const child = log.child({ job: 'charge' });
  child.warn('from a child');
  assert.deepEqual([lines[2].reqId, lines[2].job], ['r-1', 'charge']);
  assert.deepEqual(log.bindings(), logger.child({ reqId: 'r-1' }).bindings());
});

test("a request's logger follows a level set on it, as a child's would, and leaves the parent's alone", () => {
  const { logger, lines } = capture('warn');
  const log = requestLogger(logger, { reqId: 'r-2' }, {});
  assert.equal(log.level, 'warn');
  log.level = 'debug';
  log.debug('now written');
  assert.equal(lines.length, 1);
  assert.equal(lines[0].reqId, 'r-2');
  assert.equal(logger.level, 'warn');
});

test("a route's own level or serializers get pino's child itself", () => {
  const { logger, lines } = capture('warn');
  const log = requestLogger(logger, { reqId: 'r-3' }, { level: 'info' });
  assert.ok(!(log instanceof RequestLogger));
  log.info('written at the route level');
  assert.equal(lines[0].reqId, 'r-3');
});
