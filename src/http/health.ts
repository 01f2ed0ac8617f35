import type { FastifyInstance } from 'fastify';

/**
 * Readiness, apart from liveness: /healthz answers 200 as soon as a listener accepts
 * connections; /readyz answers 200 only once the store is migrated, the demo workspace seeded
 * (when asked for) and the credentials file written, so a script that waits for /readyz can read
 * the file at once. Until then it answers 503 naming what is still pending.
 */
export class Readiness {
  readonly steps = { store_migrated: false, demo_seeded: false, credentials_written: false, workers_started: false };

  mark(step: keyof Readiness['steps']): void {
    this.steps[step] = true;
  }

  get ready(): boolean {
    return Object.values(this.steps).every(Boolean);
  }

  pending(): string[] {
    return Object.entries(this.steps).filter(([, done]) => !done).map(([step]) => step);
  }
}

/** GET /readyz on a listener: 200 {status:"ready"} or 503 {status:"starting", pending:[...]}. */
export function registerReadyz(app: FastifyInstance, readiness: Readiness): void {
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (readiness.ready) return { status: 'ready' };
    return reply.code(503).header('retry-after', '1').send({ status: 'starting', pending: readiness.pending() });
  });
}
