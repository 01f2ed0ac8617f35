import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { logSink } from './log.js';

/** One Prometheus registry per Plaza process, shared by its listeners (label `listener`). */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'plaza_http_requests_total',
    help: 'HTTP requests answered, by listener, method, route and status code.',
    labelNames: ['listener', 'method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'plaza_http_request_duration_seconds',
    help: 'Time from request to response, by listener, method and route.',
    labelNames: ['listener', 'method', 'route'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  /** Log lines the stdout reader did not take in time (src/http/log.ts), counted for the whole process. */
  readonly droppedLogLines = new Counter({
    name: 'plaza_log_lines_dropped_total',
    help: 'Log lines dropped because the log destination was not reading and its buffer was full.',
    registers: [this.registry],
    collect() {
      this.reset();
      this.inc(logSink().dropped);
    },
  });

  /** Counts and times every response of `app`; unmatched paths share one route label. */
  instrument(app: FastifyInstance, listener: string): void {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const method = request.method;
      this.requests.inc({ listener, method, route, status: String(reply.statusCode) });
      this.latency.observe({ listener, method, route }, reply.elapsedTime / 1000);
      done();
    });
  }

  /** The Prometheus text exposition: this instance's HTTP metrics and the process's (CPU, memory, event loop, GC). */
  async render(): Promise<{ contentType: string; body: string }> {
    const exposed = Registry.merge([this.registry, processMetrics()]);
    return { contentType: this.registry.contentType, body: await exposed.metrics() };
  }
}

let processRegistry: Registry | undefined;

/**
 * The process's default metrics, collected once per process: collecting them starts observers
 * (GC, event-loop delay) that are never stopped, so each Metrics (one per startPlaza, several in
 * a test process) shares these rather than starting its own.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'plaza_' });
  }
  return processRegistry;
}
