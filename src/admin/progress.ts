import cliProgress from 'cli-progress';

/**
 * The progress bar of long work (`plaza seed`, `plaza replay`, the benchmarks' seeders), drawn by
 * cli-progress. On a terminal it redraws one line in place; when the stream is not a terminal (a
 * pipe, a CI log, a test reading the output) a redrawn line would be noise, so it writes a plain
 * line now and then instead: `seeding posts: 2000/5000 (40%)`, and a last one when it stops.
 */

export interface Progress {
  /** How far the work is; `total` when it has become known or changed. */
  update(done: number, total?: number): void;
  /** Draws the last state and lets the process exit (the bar keeps a timer while it runs). */
  stop(): void;
}

export interface ProgressOptions {
  /** Where it is drawn: stdout by default. */
  stream?: NodeJS.WriteStream;
  /** What is counted, after the figures on a terminal: "posts", "deliveries"... */
  unit?: string;
  /** Away from a terminal, how often a line is written. */
  lineEveryMs?: number;
}

export function progressBar(label: string, total: number, options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stdout;
  const tty = stream.isTTY === true;
  const unit = options.unit ? ` ${options.unit}` : '';
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: tty ? `${label} [{bar}] {percentage}% | {value}/{total}${unit} | {rate}/s | eta {eta_formatted}` : `${label}: {value}/{total}${unit} ({percentage}%)`,
      barCompleteChar: '#',
      barIncompleteChar: '.',
      barsize: 30,
      hideCursor: tty,
      noTTYOutput: true,
      notTTYSchedule: options.lineEveryMs ?? 1000,
      // Away from a terminal each line already ends with its newline: "clearing" only skips stop()'s extra one.
      clearOnComplete: !tty,
      etaBuffer: 50,
      formatValue: (v, _o, type) => (type === 'value' || type === 'total' ? String(v) : cliProgress.Format.ValueFormat(v, _o, type)),
    },
    cliProgress.Presets.legacy,
  );
  const started = Date.now();
  const rate = (done: number) => Math.round(done / Math.max(0.001, (Date.now() - started) / 1000));
  bar.start(total, 0, { rate: 0 });
  let stopped = false;
  return {
    update(done, newTotal) {
      if (stopped) return;
      if (newTotal !== undefined && newTotal !== bar.getTotal()) bar.setTotal(newTotal);
      bar.update(done, { rate: rate(done) });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.stop();
    },
  };
}

/** A seeder's `(done, total)` callback drawing a bar, which stops itself at the end. */
export function seedingProgress(label: string, options: ProgressOptions = {}): (done: number, total: number) => void {
  let bar: Progress | undefined;
  return (done, total) => {
    bar ??= progressBar(label, total, { unit: 'posts', ...options });
    bar.update(done, total);
    if (done >= total) bar.stop();
  };
}
