import pino, { type Logger, type LoggerOptions } from 'pino';

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
