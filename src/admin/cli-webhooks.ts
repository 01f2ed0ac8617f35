import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Command } from 'commander';
import { adminCall, CliError, DEFAULT_FILE, run } from './cli.js';

/**
 * `plaza trigger`, `plaza verify-crc`, `plaza listen`: the webhook side of testing an integration,
 * the way Stripe's CLI does it. Samples and the delivery feed come from the running Plaza's admin
 * interface (src/admin/samples.ts, src/admin/feed.ts), so what reaches the receiver is built and
 * signed by the code that makes real deliveries; the CRC check needs only the credentials file.
 */

interface CredentialApp {
  id: string;
  name: string;
  consumer_key: string;
  consumer_secret: string;
  bearer_token: string;
  client_secret: string;
}
interface CredentialTokens {
  app_id: string;
  access_token_secret: string;
  oauth2_access_token: string;
}
interface Credentials {
  apps: CredentialApp[];
  users: Array<{ username: string; tokens?: CredentialTokens[] }>;
}

function credentials(file: string): Credentials {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Credentials>;
    if (!Array.isArray(parsed.apps) || parsed.apps.length === 0) throw new CliError(`the credentials file ${file} lists no app`);
    return { apps: parsed.apps, users: Array.isArray(parsed.users) ? parsed.users : [] };
  } catch (err) {
    if (err instanceof CliError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code ? `cannot read the credentials file ${file} (${code}): start Plaza first (npm start), or name the file with --credentials-file` : `the credentials file ${file} is not JSON`);
  }
}

function appOf(creds: Credentials, nameOrId: string | undefined, file: string): CredentialApp {
  if (nameOrId === undefined) return creds.apps[0]!;
  const app = creds.apps.find((a) => a.id === nameOrId || a.name === nameOrId);
  if (!app) throw new CliError(`no app ${JSON.stringify(nameOrId)} in ${file} (apps: ${creds.apps.map((a) => `${a.id} "${a.name}"`).join(', ')})`);
  return app;
}

function checkUrl(raw: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`${what} ${JSON.stringify(raw)} is not a URL (e.g. http://localhost:3000/webhooks)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`${what} ${raw} is not an http or https URL`);
  return url;
}

function unreachable(url: string, err: unknown): CliError {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return new CliError(`cannot reach ${url} (${cause?.code ?? cause?.message ?? (err as Error).message})`);
}

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

/** What a delivery is, in the words a receiver sees: the Account Activity key, or the Activity event_type. */
export function deliveryType(body: string, logType: string): string {
  try {
    const parsed = JSON.parse(body) as Record<string, any>;
    if (typeof parsed.data?.event_type === 'string') return parsed.data.event_type;
    const key = Object.keys(parsed).find((k) => k !== 'for_user_id' && k !== 'users' && k !== 'user_has_blocked');
    if (key) return key;
  } catch {
    // not JSON: the log type says it
  }
  return logType;
}

interface Sample {
  event_type: string;
  interface: string;
  for_user_id: string | null;
  body: string;
  headers: Record<string, string>;
}

async function trigger(file: string, eventType: string, opts: { to: string; app?: string; user?: string }): Promise<void> {
  const to = checkUrl(opts.to, '--to');
  const sample = await adminCall<Sample>(file, 'POST', '/admin/samples', { event_type: eventType, ...(opts.app !== undefined ? { app: opts.app } : {}), ...(opts.user !== undefined ? { user: opts.user } : {}) });
  const out: string[] = [`> POST ${to.href}`, ...Object.entries(sample.headers).map(([k, v]) => `> ${k}: ${v}`), '>', pretty(sample.body), ''];
  let res: Response;
  const started = performance.now();
  try {
    res = await fetch(to, { method: 'POST', headers: sample.headers, body: sample.body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  } catch (err) {
    process.stdout.write(`${out.join('\n')}\n`);
    throw (err as Error).name === 'TimeoutError' ? new CliError(`${to.href} gave no answer within 10 s`) : unreachable(to.href, err);
  }
  const text = await res.text();
  const ms = Math.round(performance.now() - started);
  out.push(`< ${res.status} ${res.statusText} (${ms} ms)`, ...[...res.headers].map(([k, v]) => `< ${k}: ${v}`), '<', text ? pretty(text) : '(empty body)');
  process.stdout.write(`${out.join('\n')}\n`);
  if (res.status < 200 || res.status >= 300) throw new CliError(`${to.href} answered HTTP ${res.status} to the ${sample.event_type} delivery: Plaza would count it as a failed attempt and retry`);
}

/** The platform's answer: `sha256=` + base64 HMAC-SHA256 of the token (src/platform/webhooks/crc.ts). */
const hmac = (token: string, key: string, encoding: 'base64' | 'hex' = 'base64') => createHmac('sha256', key).update(token).digest(encoding);

/** The CRC time limit of the platform (shared/reference/platform.md §1: an answer within 3 s). */
const CRC_LIMIT_MS = 3000;
const GIVE_UP_MS = 15_000;

/** What is wrong with a webhook's CRC answer; empty when it passes. */
async function verifyCrc(file: string, rawUrl: string, appName: string | undefined): Promise<{ problems: string[]; summary: string }> {
  const creds = credentials(file);
  const app = appOf(creds, appName, file);
  const url = checkUrl(rawUrl, 'the URL');
  const token = randomBytes(24).toString('base64url');
  url.searchParams.set('crc_token', token);
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(GIVE_UP_MS) });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') return { problems: [`no answer within ${GIVE_UP_MS / 1000} s (the platform waits ${CRC_LIMIT_MS / 1000} s)`], summary: '' };
    throw unreachable(rawUrl, err);
  }
  const text = await res.text();
  const ms = Math.round(performance.now() - started);
  const problems: string[] = [];
  const type = res.headers.get('content-type') ?? '';
  if (ms > CRC_LIMIT_MS) problems.push(`answered in ${ms} ms, over the ${CRC_LIMIT_MS / 1000} s the platform waits`);
  if (res.status >= 300 && res.status < 400) problems.push(`answered HTTP ${res.status} (a redirect to ${res.headers.get('location') ?? 'nowhere'}): redirects are not followed, and one makes the webhook invalid; answer 200 at this URL`);
  else if (res.status !== 200) problems.push(`answered HTTP ${res.status}: the CRC answer must be 200`);
  if (res.status === 200) {
    if (!/^application\/json\b/i.test(type)) problems.push(`answered with content type ${type ? JSON.stringify(type) : '(none)'}: it must be application/json`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
      problems.push(`the body is not JSON: ${JSON.stringify(text.slice(0, 80))}; it must be {"response_token": "sha256=..."}`);
    }
    if (body !== undefined) {
      const answer = (body as { response_token?: unknown } | null)?.response_token;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) problems.push(`the JSON is ${Array.isArray(body) ? 'an array' : typeof body}: it must be an object {"response_token": "sha256=..."}`);
      else if (typeof answer !== 'string') problems.push(`the JSON has no string response_token (keys: ${Object.keys(body).join(', ') || 'none'}): it must be {"response_token": "sha256=..."}`);
      else problems.push(...tokenProblems(answer, token, app, creds));
    }
  }
  return { problems, summary: `HTTP ${res.status}, ${type || 'no content type'}, ${ms} ms` };
}

function tokenProblems(answer: string, token: string, app: CredentialApp, creds: Credentials): string[] {
  const expected = `sha256=${hmac(token, app.consumer_secret)}`;
  if (answer === expected) return [];
  const digest = answer.startsWith('sha256=') ? answer.slice(7) : answer;
  if (digest === hmac(token, app.consumer_secret)) return ['response_token lacks the "sha256=" prefix'];
  if (digest === hmac(token, app.consumer_secret, 'hex')) return ['response_token is the hex digest: it must be base64, after "sha256="'];
  // The keys people sign with by mistake, named so they can find the line.
  const wrongKeys: Array<[string, string]> = [
    ['the bearer token', app.bearer_token],
    ['the consumer key (API key), not its secret', app.consumer_key],
    ['the OAuth 2.0 client secret', app.client_secret],
  ];
  for (const user of creds.users) {
    for (const t of user.tokens ?? []) {
      if (t.app_id !== app.id) continue;
      wrongKeys.push([`the access token secret of @${user.username}`, t.access_token_secret], [`the OAuth 2.0 access token of @${user.username}`, t.oauth2_access_token]);
    }
  }
  for (const [name, key] of wrongKeys) {
    if (key && (digest === hmac(token, key) || digest === hmac(token, key, 'hex'))) return [`response_token is signed with ${name} instead of the consumer secret of ${app.name} (${app.id})`];
  }
  if (digest === hmac('', app.consumer_secret) || answer === token) return ['response_token does not sign the crc_token of this request'];
  return [`response_token is wrong: expected the HMAC-SHA256 of crc_token under the consumer secret of ${app.name} (${app.id}), base64, after "sha256="`];
}

interface Feed {
  cursor: number;
  deliveries: Array<{ id: string; log_type: string; body: string; headers: Record<string, string> }>;
}

async function listen(file: string, opts: { forwardTo: string; events?: string; app?: string; pollMs: string }): Promise<void> {
  const to = checkUrl(opts.forwardTo, '--forward-to');
  const app = opts.app ?? credentials(file).apps[0]!.id;
  const wanted = opts.events === undefined ? undefined : new Set(opts.events.split(',').map((t) => t.trim()).filter(Boolean));
  const pollMs = Number(opts.pollMs);
  if (!Number.isInteger(pollMs) || pollMs < 50 || pollMs > 60_000) throw new CliError('--poll-ms must be an integer from 50 to 60000');
  const feedPath = (after?: number) => `/admin/apps/${encodeURIComponent(app)}/deliveries${after === undefined ? '' : `?after=${after}`}`;
  let cursor = (await adminCall<Feed>(file, 'GET', feedPath())).cursor;
  let stopped = false;
  let wake: () => void = () => undefined;
  const stop = () => {
    stopped = true;
    wake();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  process.stdout.write(`Ready: forwarding the deliveries of app ${app}${wanted ? ` (${[...wanted].join(', ')})` : ''} to ${to.href} (Ctrl-C to stop)\n`);
  while (!stopped) {
    const feed = await adminCall<Feed>(file, 'GET', feedPath(cursor));
    for (const d of feed.deliveries) {
      const type = deliveryType(d.body, d.log_type);
      if (wanted && !wanted.has(type) && !wanted.has(d.log_type)) continue;
      const started = performance.now();
      let status: string;
      try {
        const res = await fetch(to, { method: 'POST', headers: d.headers, body: d.body, redirect: 'manual', signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        status = String(res.status);
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause;
        status = (err as Error).name === 'TimeoutError' ? 'TIMEOUT' : `ERR ${cause?.code ?? (err as Error).message}`;
      }
      const ms = Math.round(performance.now() - started);
      process.stdout.write(`${new Date().toISOString()}  ${type}  ${status}  ${ms} ms  [${d.id}]\n`);
    }
    cursor = feed.cursor;
    if (feed.deliveries.length === 0 && !stopped) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }
  process.stdout.write('Stopped.\n');
}

export function addWebhookCommands(program: Command): void {
  const fileOption = ['--credentials-file <file>', 'the credentials file of the running Plaza', DEFAULT_FILE] as const;

  program
    .command('trigger')
    .argument('<event_type>', 'an Account Activity kind (tweet_create_events, favorite_events, follow_events...) or an Activity API event type (post.mention.create, follow.follow...)')
    .description('Send one signed sample delivery of an event type to a URL, built by the code that builds real deliveries, and print the request and the response.')
    .requiredOption('--to <url>', 'where to POST the delivery')
    .option('--app <app>', 'the app (id or name) whose consumer secret signs it (the first app when absent)')
    .option('--user <user>', 'the user (id or username) the event concerns (the first user when absent)')
    .option(...fileOption)
    .addHelpText('after', '\nExample:\n  npm run plaza -- trigger tweet_create_events --to http://localhost:3000/webhooks --user ada\n  npm run plaza -- trigger post.mention.create --to http://localhost:3000/webhooks\n')
    .action((eventType: string, opts: { to: string; app?: string; user?: string; credentialsFile: string }) => run('trigger', () => trigger(opts.credentialsFile, eventType, opts)));

  program
    .command('verify-crc')
    .argument('<url>', 'the webhook URL to challenge')
    .description('Send a CRC challenge as the platform does (GET ?crc_token=...) and say exactly what is wrong with the answer: status, content type, JSON shape, HMAC key, time over 3 s.')
    .option('--app <app>', 'the app (id or name) whose consumer secret the answer must use (the first app when absent)')
    .option(...fileOption)
    .addHelpText('after', '\nExample:\n  npm run plaza -- verify-crc http://localhost:3000/webhooks --app "Plaza Self-Serve Demo"\n')
    .action((url: string, opts: { app?: string; credentialsFile: string }) =>
      run('verify-crc', async () => {
        const { problems, summary } = await verifyCrc(opts.credentialsFile, url, opts.app);
        if (problems.length > 0) throw new CliError(problems.join('; '));
        process.stdout.write(`CRC passed: ${summary}, response_token correct\n`);
      }),
    );

  program
    .command('listen')
    .description('Forward every delivery meant for the app to a local URL while running, one line per delivery: time, type, status, latency. That is what its webhooks get (Account Activity, Activity subscriptions that name a webhook, filtered-stream rules delivered to a webhook) and the events of its Activity subscriptions without a webhook, signed alike with the app\'s consumer secret.')
    .requiredOption('--forward-to <url>', 'where to POST each delivery, signed as Plaza signs it')
    .option('--events <types>', 'only these types, comma-separated (tweet_create_events, follow.follow, post.create...)')
    .option('--app <app>', 'the app (id or name) whose deliveries to follow (the first app of the credentials file when absent)')
    .option('--poll-ms <ms>', 'how often to ask Plaza for new deliveries', '250')
    .option(...fileOption)
    .addHelpText('after', '\nExample:\n  npm run plaza -- listen --forward-to http://localhost:3000/webhooks --events tweet_create_events,favorite_events\n')
    .action((opts: { forwardTo: string; events?: string; app?: string; pollMs: string; credentialsFile: string }) => run('listen', () => listen(opts.credentialsFile, opts)));
}
