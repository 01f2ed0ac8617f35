import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { addLongWorkCommands } from './cli-long-work.js';
import { addWebhookCommands } from './cli-webhooks.js';

/**
 * `plaza users`, `plaza apps`, `plaza tokens`: the admin interface of a running Plaza from the
 * command line, with the address and admin token read from the credentials file, so nobody has
 * to read JSON by hand. Light on imports: --help must not wait for the server's modules.
 */

export const DEFAULT_FILE = path.join('data', 'credentials.json');

export class CliError extends Error {}

interface Target {
  base_url: string;
  admin_token: string;
}

export function target(file: string): Target {
  let parsed: Partial<Target>;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Target>;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code ? `cannot read the credentials file ${file} (${code}): start Plaza first (npm start), or name the file with --credentials-file` : `the credentials file ${file} is not JSON`);
  }
  if (typeof parsed.base_url !== 'string' || !parsed.base_url) throw new CliError(`the credentials file ${file} has no base_url`);
  if (typeof parsed.admin_token !== 'string' || !parsed.admin_token) throw new CliError(`the credentials file ${file} has no admin_token: Plaza runs with --no-admin, or the file predates the admin interface (restart Plaza)`);
  return { base_url: parsed.base_url, admin_token: parsed.admin_token };
}

/** One call to the admin interface; its `data`, or a one-line reason. */
export async function adminCall<T>(file: string, method: string, p: string, body?: unknown): Promise<T> {
  const t = target(file);
  let res: Response;
  try {
    res = await fetch(`${t.base_url}${p}`, {
      method,
      headers: { authorization: `Bearer ${t.admin_token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(`cannot reach Plaza at ${t.base_url} (${cause?.code ?? cause?.message ?? (err as Error).message}): is it running?`);
  }
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const reason = parsed?.errors?.[0]?.message ?? parsed?.detail ?? parsed?.title ?? text.slice(0, 200);
    throw new CliError(res.status === 401 ? `Plaza refused the admin token of ${file} (401): it belongs to another store or server secret` : `${res.status}: ${reason}`);
  }
  return parsed.data as T;
}

/** Rows as aligned columns, the last one unpadded. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n')}\n`;
}

/** Runs a command body; a failure is one line on stderr and exit code 1. */
export function run(name: string, body: () => Promise<void>): Promise<void> {
  return body().catch((err: unknown) => {
    process.stderr.write(`plaza ${name}: ${err instanceof CliError ? err.message : err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  });
}

export function addAdminCommands(program: Command): void {
  addWebhookCommands(program);
  addLongWorkCommands(program);
  const fileOption = ['--credentials-file <file>', `the credentials file of the running Plaza`, DEFAULT_FILE] as const;

  program
    .command('users')
    .description('List the users of the running Plaza (id, username, name), through its admin interface.')
    .option(...fileOption)
    .option('--json', 'print JSON instead of a table')
    .addHelpText('after', '\nExample:\n  npm run plaza -- users\n  npm run plaza -- users --json --credentials-file ./data/credentials.json\n')
    .action((opts: { credentialsFile: string; json?: boolean }) =>
      run('users', async () => {
        const users = await adminCall<Array<{ id: string; username: string; name: string }>>(opts.credentialsFile, 'GET', '/admin/users');
        process.stdout.write(opts.json ? `${JSON.stringify(users, null, 2)}\n` : table([['ID', 'USERNAME', 'NAME'], ...users.map((u) => [u.id, u.username, u.name])]));
      }),
    );

  program
    .command('apps')
    .description("List the apps of the running Plaza (id, tier, dialect, name), through its admin interface; with --app and --dialect, set an app's dialect first.")
    .option(...fileOption)
    .option('--json', 'print JSON instead of a table')
    .option('--app <name>', 'the app whose setting --dialect changes: name or id')
    .addOption(new Option('--dialect <names>', "the names the app is answered and delivered in: tweet (the public platform's, as SDKs expect) or post (Plaza's)").choices(['post', 'tweet']))
    .addHelpText('after', '\nExample:\n  npm run plaza -- apps\n  npm run plaza -- apps --app "Plaza Demo" --dialect tweet\n')
    .action((opts: { credentialsFile: string; json?: boolean; app?: string; dialect?: string }) =>
      run('apps', async () => {
        if ((opts.app === undefined) !== (opts.dialect === undefined)) throw new CliError('--app and --dialect go together: name the app whose dialect to set.');
        if (opts.app !== undefined) await adminCall(opts.credentialsFile, 'PATCH', `/admin/apps/${encodeURIComponent(opts.app)}`, { dialect: opts.dialect });
        const apps = await adminCall<Array<{ id: string; name: string; tier: string; dialect: string }>>(opts.credentialsFile, 'GET', '/admin/apps');
        process.stdout.write(opts.json ? `${JSON.stringify(apps, null, 2)}\n` : table([['ID', 'TIER', 'DIALECT', 'NAME'], ...apps.map((a) => [a.id, a.tier, a.dialect, a.name])]));
      }),
    );

  program
    .command('tokens')
    .description('Mint fresh OAuth 1.0a and OAuth 2.0 tokens of a user for an app, and print them as JSON (they are shown once).')
    .requiredOption('--user <name>', 'the user: username or id')
    .option('--app <name>', 'the app: name or id (the first app when absent)')
    .option(...fileOption)
    .addHelpText('after', '\nExample:\n  npm run plaza -- tokens --user ada --app "Plaza Enterprise Demo"\n')
    .action((opts: { credentialsFile: string; user: string; app?: string }) =>
      run('tokens', async () => {
        const tokens = await adminCall<unknown>(opts.credentialsFile, 'POST', '/admin/tokens', { user: opts.user, ...(opts.app !== undefined ? { app: opts.app } : {}) });
        process.stdout.write(`${JSON.stringify(tokens, null, 2)}\n`);
      }),
    );
}
