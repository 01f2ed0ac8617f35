import pino, { type Level, type Logger, type LoggerOptions } from 'pino';

/**
 * Where every log line of the process goes: stdout, through a bounded buffer. Writing never
 * blocks the event loop and exit never waits on it: when the reader of stdout is slow or gone
 * (a stalled pipe), lines beyond the buffer are dropped and counted (plaza_log_lines_dropped_total
 * in /metrics) instead of stalling requests or shutdown. pino's own destinations either write
 * synchronously or flush synchronously at exit, which is exactly what hangs on a stalled pipe.
 */
export class BoundedLogSink {
  dropped = 0;

  constructor(
    private readonly out: NodeJS.WritableStream & { writableLength?: number },
    /** Bytes that may wait for the reader before lines are dropped. */
    readonly maxBufferedBytes: number,
  ) {}

  write(line: string): boolean {
    // A stdout that is a pipe or a socket is asynchronous in Node: writableLength is what the
    // reader has not taken yet. A file or a terminal writes at once and never grows it.
    const out = this.out as typeof this.out & { destroyed?: boolean };
    if (out.destroyed || (out.writableLength ?? 0) + line.length > this.maxBufferedBytes) {
      this.dropped += 1;
      return true;
    }
    this.out.write(line);
    return true;
  }
}

let sink: BoundedLogSink | undefined;

/**
 * The process's one log destination (stdout is one per process, whatever number of Plazas it
 * runs); the first caller sets its buffer size (Config.logBufferBytes, 8 MiB by default: some
 * tens of thousands of lines, enough to ride out a slow reader, small enough to hold).
 */
export function logSink(maxBufferedBytes = 8 * 1024 * 1024): BoundedLogSink {
  if (!sink) {
    sink = new BoundedLogSink(process.stdout, maxBufferedBytes);
    // A reader that goes away must not kill the process with EPIPE: its lines are simply lost.
    process.stdout.on('error', () => undefined);
  }
  return sink;
}

/** A pino logger writing to the shared sink. */
export function createLogger(options: LoggerOptions, maxBufferedBytes?: number): Logger {
  return pino(options, logSink(maxBufferedBytes));
}

/**
 * A request's logger (Fastify's childLoggerFactory), whose pino child is made when the request
 * first logs at an enabled level: making the child, with its bindings written out as JSON, cost
 * every request about a microsecond, and most requests log nothing at the levels an operator
 * keeps. Logs exactly as the child would: same bindings, same lines.
 */
export class RequestLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly own: Record<string, unknown>,
  ) {}

  private get logger(): Logger {
    return (this.made ??= this.parent.child(this.own) as Logger);
  }

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }

  child(bindings: Record<string, unknown>, options?: Parameters<Logger['child']>[1]): Logger {
    return this.logger.child(bindings, options) as unknown as Logger;
  }

  bindings(): Record<string, unknown> {
    return this.logger.bindings();
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.write('error', args);
  }

  warn(...args: unknown[]): void {
    this.write('warn', args);
  }

  info(...args: unknown[]): void {
    this.write('info', args);
  }

  debug(...args: unknown[]): void {
    this.write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.write('trace', args);
  }

  silent(): void {}

  private write(method: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(method)) return;
    (this.logger[method] as (...a: unknown[]) => void)(...args);
  }
}

/**
 * Fastify's childLoggerFactory for every listener: a RequestLogger, or pino's own child where the
 * route sets its own level or serializers (none does today).
 */
export function requestLogger(logger: Logger, bindings: Record<string, unknown>, options: { level?: string; serializers?: unknown }): Logger {
  if (options.level !== undefined || options.serializers !== undefined) return logger.child(bindings, options as Parameters<Logger['child']>[1]) as unknown as Logger;
  return new RequestLogger(logger, bindings) as unknown as Logger;
}
