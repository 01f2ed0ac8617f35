import type { Command } from 'commander';
import { adminCall, CliError, DEFAULT_FILE, run } from './cli.js';
import { progressBar } from './progress.js';
import type { SeedAnswer } from './seed.js';

/**
 * `plaza seed` and `plaza replay`: the CLI's long work, through the admin interface of a running
 * Plaza (POST /admin/seed in chunks, POST /admin/replays then its progress), with a progress bar
 * that becomes plain lines when the output is not a terminal.
 */

function integer(raw: string, name: string, min: number, max: number): number {
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(n) || n < min || n > max) throw new CliError(`${name} must be an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
  return n;
}

const MAX_POSTS = 10_000_000;

async function seed(file: string, opts: { posts: string; users: string; days: string; seed?: string; chunk: string; contacts?: boolean }): Promise<void> {
  const total = integer(opts.posts, '--posts', 1, MAX_POSTS);
  const users = integer(opts.users, '--users', 1, 9_999);
  const days = integer(opts.days, '--days', 1, 30);
  const chunk = integer(opts.chunk, '--chunk', 1, 10_000);
  // A fresh seed per run unless one is named, so a second run adds new posts instead of the same ones.
  const seedValue = opts.seed === undefined ? Math.floor(Math.random() * 1_000_000) : integer(opts.seed, '--seed', 0, 2_147_483_647);
  let until: string | undefined;
  let written = 0;
  let authors: string[] = [];
  const bar = progressBar('seeding posts', total, { unit: 'posts' });
  try {
    for (let first = 0; first < total; first += chunk) {
      const posts = Math.min(chunk, total - first);
      const answer = await adminCall<SeedAnswer>(file, 'POST', '/admin/seed', { posts, users, days, first, of: total, seed: seedValue, ...(until ? { until } : {}), ...(opts.contacts ? { contacts: true } : {}) });
      until = answer.until;
      authors = answer.authors;
      written += answer.written;
      bar.update(first + posts);
    }
  } finally {
    bar.stop();
  }
  const from = new Date(new Date(until!).getTime() - days * 86_400_000).toISOString();
  const skipped = total - written;
  process.stdout.write(
    `Seeded ${written} posts by ${authors.length} authors (${authors[0]}...${authors.at(-1)}), from ${from} to ${until}, seed ${seedValue}${skipped ? `; ${skipped} skipped: their ids were taken (run again with another --seed)` : ''}.\n` +
      `Try: GET /2/posts/search/recent?query=from:${authors[0]}\n`,
  );
}

interface ReplayProgress {
  job_id: string;
  webhook_id: string;
  state: 'running' | 'complete' | 'incomplete';
  from_date: string;
  to_date: string;
  total: number;
  delivered: number;
  failed: number;
  pending: number;
}

async function replay(file: string, opts: { webhook: string; from: string; to?: string; pollMs: string }): Promise<void> {
  const pollMs = integer(opts.pollMs, '--poll-ms', 50, 60_000);
  if (!/^\d{1,19}$/.test(opts.webhook)) throw new CliError(`--webhook must be a webhook id (digits), not ${JSON.stringify(opts.webhook)}`);
  // Up to now by Plaza's clock, which the admin interface may have moved.
  const to = opts.to ?? (await adminCall<{ now: string }>(file, 'GET', '/admin/clock')).now;
  let job = await adminCall<ReplayProgress>(file, 'POST', '/admin/replays', { webhook_id: opts.webhook, from_date: opts.from, to_date: to });
  process.stdout.write(`Replay job ${job.job_id}: webhook ${job.webhook_id}, ${job.from_date} to ${job.to_date}, ${job.total} deliveries to re-send\n`);
  const bar = progressBar('replaying', job.total, { unit: 'deliveries' });
  try {
    while (job.state === 'running') {
      bar.update(job.delivered + job.failed, job.total);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      job = await adminCall<ReplayProgress>(file, 'GET', `/admin/replays/${job.job_id}`);
    }
    bar.update(job.delivered + job.failed, job.total);
  } finally {
    bar.stop();
  }
  if (job.state === 'incomplete') throw new CliError(`replay job ${job.job_id} is incomplete: ${job.failed} of ${job.total} deliveries failed (see the console's webhook deliveries)`);
  process.stdout.write(`Replay job ${job.job_id} complete: ${job.delivered} of ${job.total} deliveries re-sent, then its replay_job_status event.\n`);
}

export function addLongWorkCommands(program: Command): void {
  const fileOption = ['--credentials-file <file>', 'the credentials file of the running Plaza', DEFAULT_FILE] as const;

  program
    .command('seed')
    .description('Fill the running Plaza with generated authors (seed_user_N) and realistic posts spread over the last days, with a progress bar. The posts are history: no event, stream or webhook hears of them.')
    .requiredOption('--posts <n>', `how many posts (up to ${MAX_POSTS})`)
    .option('--users <n>', 'how many authors (created when missing)', '50')
    .option('--days <n>', 'the posts spread over this many days before now', '7')
    .option('--seed <n>', 'the generator\'s seed: the same seed on the same store writes the same posts (random when absent)')
    .option('--chunk <n>', 'posts per request to Plaza', '2000')
    .option('--contacts', 'give the authors e-mail addresses and phone numbers (plaza users lists them), for custom audiences to match')
    .option(...fileOption)
    .addHelpText('after', '\nExample:\n  npm run plaza -- seed --posts 20000 --users 200\n  npm run plaza -- seed --posts 1000 --users 500 --contacts\n')
    .action((opts: { posts: string; users: string; days: string; seed?: string; chunk: string; contacts?: boolean; credentialsFile: string }) => run('seed', () => seed(opts.credentialsFile, opts)));

  program
    .command('replay')
    .description('Start a replay job of a webhook (as POST /2/webhooks/replay: the deliveries of a window of the last 24 hours, sent again) and follow it to the end with a progress bar.')
    .requiredOption('--webhook <id>', 'the webhook id')
    .requiredOption('--from <time>', 'the window\'s start, ISO 8601 (2026-01-02T03:04Z) or yyyymmddhhmm, UTC; within the last 24 hours')
    .option('--to <time>', 'the window\'s end (excluded), ISO 8601 or yyyymmddhhmm (now by Plaza\'s clock when absent)')
    .option('--poll-ms <ms>', 'how often to ask Plaza for the job\'s progress', '250')
    .option(...fileOption)
    .addHelpText('after', '\nExample:\n  npm run plaza -- replay --webhook 1890123456789012345 --from 2026-01-02T03:00Z --to 2026-01-02T04:00Z\n')
    .action((opts: { webhook: string; from: string; to?: string; pollMs: string; credentialsFile: string }) => run('replay', () => replay(opts.credentialsFile, opts)));
}
