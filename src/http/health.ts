import type { FastifyInstance } from 'fastify';

/**
 * Readiness, apart from liveness: /healthz answers 200 as soon as a listener accepts
 * connections; /readyz answers 200 only once the store is migrated, the demo workspace seeded
 * (when asked for) and the credentials file written, so a script that waits for /readyz can read
 * the file at once. Until then it answers 503 naming what is still pending. Once up it answers 503
 * while what it depends on cannot be reached (the store; Redis when configured), and from the
 * first moment of a shutdown, so a load balancer stops sending to it (issue #37).
 */
export class Readiness {
  readonly steps = { store_migrated: false, demo_seeded: false, credentials_written: false, workers_started: false };
  /** Set when a shutdown begins: the process is on its way out. */
  stopping = false;
  /** What must answer for the process to be ready, each checked on every /readyz. */
  private readonly dependencies = new Map<string, () => Promise<unknown>>();

  mark(step: keyof Readiness['steps']): void {
    this.steps[step] = true;
  }

  get ready(): boolean {
    return Object.values(this.steps).every(Boolean);
  }

  pending(): string[] {
    return Object.entries(this.steps).filter(([, done]) => !done).map(([step]) => step);
  }

  /** A dependency /readyz checks: `check` rejects (or takes over a second) when it cannot be reached. */
  depend(name: string, check: () => Promise<unknown>): void {
    this.dependencies.set(name, check);
  }

  /** The dependencies that cannot be reached now. */
  async unreachable(): Promise<string[]> {
    const results = await Promise.all(
      [...this.dependencies].map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no answer within a second')), CHECK_TIMEOUT_MS)));
        try {
          await Promise.race([check(), late]);
          return undefined;
        } catch {
          return name;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return results.filter((name): name is string => name !== undefined);
  }
}

const CHECK_TIMEOUT_MS = 1_000;

/**
 * GET /readyz on a listener: 200 {status:"ready"}; 503 {status:"starting", pending:[...]},
 * {status:"unavailable", unavailable:[...]} or {status:"stopping"}, each with Retry-After.
 */
export function registerReadyz(app: FastifyInstance, readiness: Readiness): void {
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const unready = (body: Record<string, unknown>) => reply.code(503).header('retry-after', '1').send(body);
    if (readiness.stopping) return unready({ status: 'stopping' });
    if (!readiness.ready) return unready({ status: 'starting', pending: readiness.pending() });
    const unreachable = await readiness.unreachable();
    if (unreachable.length > 0) return unready({ status: 'unavailable', unavailable: unreachable });
    return { status: 'ready' };
  });
}
