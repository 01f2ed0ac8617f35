import type { FastifyInstance } from 'fastify';
import { Counter, Registry, collectDefaultMetrics, type Metric, type MetricValueWithName } from 'prom-client';
import { logSink } from './log.js';

/** One Prometheus registry per Plaza process, shared by its listeners (label `listener`). */
export class Metrics {
  readonly registry = new Registry();
  /** Every response's count and time, kept per listener, route and method (see HttpResponses). */
  private readonly responses = new HttpResponses();
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

  constructor() {
    this.registry.registerMetric(this.responses.requestsMetric());
    this.registry.registerMetric(this.responses.latencyMetric());
  }

  /** Counts and times every response of `app`; unmatched paths share one route label. */
  instrument(app: FastifyInstance, listener: string): void {
    app.addHook('onResponse', (request, reply, done) => {
      this.responses.record(listener, request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime / 1000);
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

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** What one listener, route and method has answered: a count per status, and the times' histogram. */
interface RouteResponses {
  statuses: Map<number, number>;
  /** Responses per latency bucket (not cumulative); the last counts those above every bound. */
  buckets: number[];
  sum: number;
  count: number;
}

type Sample = MetricValueWithName<string>;

/**
 * plaza_http_requests_total and plaza_http_request_duration_seconds, counted in plain maps and
 * exposed through the registry as prom-client's own counter and histogram would be. prom-client
 * hashes a request's labels on every inc and observe (about 1 µs a response, measured); here a
 * response costs two map reads and an addition, and the samples are built when /metrics is read.
 */
class HttpResponses {
  private readonly byListener = new Map<string, Map<string, Map<string, RouteResponses>>>();

  record(listener: string, route: string, method: string, status: number, seconds: number): void {
    let routes = this.byListener.get(listener);
    if (!routes) this.byListener.set(listener, (routes = new Map()));
    let methods = routes.get(route);
    if (!methods) routes.set(route, (methods = new Map()));
    let entry = methods.get(method);
    if (!entry) methods.set(method, (entry = { statuses: new Map(), buckets: new Array(LATENCY_BUCKETS.length + 1).fill(0), sum: 0, count: 0 }));
    entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    entry.buckets[bucket]! += 1;
    entry.sum += seconds;
    entry.count += 1;
  }

  private *entries(): Generator<[Record<string, string>, RouteResponses]> {
    for (const [listener, routes] of this.byListener)
      for (const [route, methods] of routes) for (const [method, entry] of methods) yield [{ listener, method, route }, entry];
  }

  requestsMetric(): Metric {
    return this.metric('plaza_http_requests_total', 'HTTP requests answered, by listener, method, route and status code.', 'counter', () => {
      const values: Sample[] = [];
      for (const [labels, entry] of this.entries()) for (const [status, n] of entry.statuses) values.push({ labels: { ...labels, status: String(status) }, value: n });
      return values;
    });
  }

  latencyMetric(): Metric {
    const name = 'plaza_http_request_duration_seconds';
    return this.metric(name, 'Time from request to response, by listener, method and route.', 'histogram', () => {
      const values: Sample[] = [];
      for (const [labels, entry] of this.entries()) {
        let below = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          below += entry.buckets[i]!;
          values.push({ metricName: `${name}_bucket`, labels: { le, ...labels }, value: below });
        });
        values.push({ metricName: `${name}_bucket`, labels: { le: '+Inf', ...labels }, value: entry.count });
        values.push({ metricName: `${name}_sum`, labels, value: entry.sum });
        values.push({ metricName: `${name}_count`, labels, value: entry.count });
      }
      return values;
    });
  }

  /** A metric the registry renders (and merges) as it does its own: a name, a type and the samples of now. */
  private metric(name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]): Metric {
    const metric = {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
      // Both metrics count from the same maps: resetting either (the registry resets all) clears both.
      reset: () => this.byListener.clear(),
    };
    // prom-client's registry asks a metric for these members only (registerMetric, metrics(), resetMetrics());
    // its declared types say a numeric enum where the library itself writes the type's name.
    return metric as unknown as Metric;
  }
}
