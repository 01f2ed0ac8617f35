import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { CliError, DEFAULT_FILE, run } from '../admin/cli.js';

/**
 * `plaza ca` and `plaza doctor`: where the drop-in proxy's certificate and Node preload are, and
 * whether this machine's clients reach Plaza through them (issue 35). Both read the credentials
 * file of the running Plaza.
 */

interface DropIn {
  proxy_url: string;
  ca_file: string;
  node_preload: string;
  bearer: string;
}

function dropInOf(file: string): DropIn {
  let parsed: any;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CliError(code ? `cannot read the credentials file ${file} (${code}): start Plaza first (npm start), or name the file with --credentials-file` : `the credentials file ${file} is not JSON`);
  }
  for (const key of ['proxy_url', 'ca_file', 'node_preload'] as const) {
    if (typeof parsed?.[key] !== 'string' || !parsed[key]) throw new CliError(`the credentials file ${file} has no ${key}: it was written by a Plaza without the drop-in proxy (restart Plaza)`);
  }
  return { proxy_url: parsed.proxy_url, ca_file: parsed.ca_file, node_preload: parsed.node_preload, bearer: parsed.users?.[0]?.oauth2_access_token ?? '' };
}

const exec = promisify(execFile);

interface Check {
  what: string;
  ok: boolean;
  detail: string;
}

/** Runs a short program with the environment given (on top of this one's), answering what it printed, or why it failed. */
async function attempt(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; out: string }> {
  try {
    const { stdout } = await exec(command, args, { env: { ...process.env, ...env }, timeout: 15_000 });
    return { ok: true, out: stdout.trim() };
  } catch (err) {
    const e = err as { code?: string; stdout?: string; stderr?: string; message: string };
    return { ok: false, out: (e.code === 'ENOENT' ? `${command} is not installed` : (e.stderr || e.stdout || e.message)).trim().split('\n').slice(-1)[0] ?? '' };
  }
}

const ME = 'https://api.x.com/2/users/me';

/** What `plaza doctor` checks, in order: each a line with ok or what to set. */
async function checks(d: DropIn): Promise<Check[]> {
  const out: Check[] = [];
  const auth = `Authorization: Bearer ${d.bearer}`;
  out.push({ what: 'the certificate authority', ok: fs.existsSync(d.ca_file), detail: d.ca_file });
  out.push({ what: 'the Node preload', ok: fs.existsSync(d.node_preload), detail: d.node_preload });

  const nodeProgram = `fetch(${JSON.stringify(ME)}, { headers: { authorization: ${JSON.stringify(`Bearer ${d.bearer}`)} } }).then(async (r) => { console.log(r.status); process.exit(r.status === 200 ? 0 : 1); }, (e) => { console.error(e.cause?.code ?? e.message); process.exit(1); })`;
  const withPreload = await attempt(process.execPath, ['--import', d.node_preload, '-e', nodeProgram], {});
  out.push({ what: `Node with the preload: GET ${ME}`, ok: withPreload.ok, detail: withPreload.ok ? 'reaches Plaza' : withPreload.out });
  const options = process.env.NODE_OPTIONS ?? '';
  const preloaded = options.includes(d.node_preload);
  out.push({
    what: 'Node programs of this shell',
    ok: preloaded,
    detail: preloaded ? 'NODE_OPTIONS loads the preload' : `not routed; run them with: node --import ${d.node_preload} bot.mjs, or export NODE_OPTIONS="--import ${d.node_preload}"`,
  });

  // The first Python that has requests (a virtual environment's, or the system's).
  let pythonCommand: string | undefined;
  for (const candidate of ['python3', '/usr/bin/python3']) {
    if ((await attempt(candidate, ['-c', 'import requests'], {})).ok) {
      pythonCommand = candidate;
      break;
    }
  }
  const pythonProgram = `import os, sys, requests\ntry:\n    r = requests.get(${JSON.stringify(ME)}, headers={'Authorization': 'Bearer ' + os.environ['PLAZA_DOCTOR_BEARER']}, timeout=10)\n    print(r.status_code); sys.exit(0 if r.status_code == 200 else 1)\nexcept Exception as e:\n    print(type(e).__name__, file=sys.stderr); sys.exit(1)\n`;
  if (pythonCommand) {
    const python = await attempt(pythonCommand, ['-c', pythonProgram], { HTTPS_PROXY: d.proxy_url, REQUESTS_CA_BUNDLE: d.ca_file, PLAZA_DOCTOR_BEARER: d.bearer });
    out.push({ what: `Python requests with HTTPS_PROXY and REQUESTS_CA_BUNDLE: GET ${ME}`, ok: python.ok, detail: python.ok ? 'reaches Plaza' : python.out });
  }
  const shellPython = process.env.HTTPS_PROXY === d.proxy_url && (process.env.REQUESTS_CA_BUNDLE === d.ca_file || process.env.SSL_CERT_FILE === d.ca_file);
  out.push({
    what: 'Python programs of this shell',
    ok: shellPython,
    detail: `${shellPython ? 'HTTPS_PROXY and REQUESTS_CA_BUNDLE are set' : `not routed; export HTTPS_PROXY=${d.proxy_url} REQUESTS_CA_BUNDLE=${d.ca_file}`}${pythonCommand ? '' : ' (no Python with requests found to try it)'}`,
  });

  const curl = await attempt('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', '--proxy', d.proxy_url, '--cacert', d.ca_file, '-H', auth, ME], {});
  const curlOk = curl.ok && curl.out === '200';
  out.push({ what: `curl --proxy ${d.proxy_url} --cacert ${d.ca_file} ${ME}`, ok: curlOk, detail: curlOk ? 'reaches Plaza' : curl.out || 'no answer' });
  return out;
}

export function addProxyCommands(program: Command): void {
  program
    .command('ca')
    .description("Where the drop-in proxy's certificate authority and Node preload are, for the clients that should trust and use them.")
    .option('--credentials-file <file>', 'the credentials file of the running Plaza', DEFAULT_FILE)
    .option('--print-path', "print the CA certificate's path (the default)")
    .option('--node-preload', "print the Node preload's path instead")
    .addHelpText(
      'after',
      `\nExample:\n  HTTPS_PROXY=http://127.0.0.1:8083 REQUESTS_CA_BUNDLE=$(npm run -s plaza -- ca --print-path) python3 bot.py\n  node --import $(npm run -s plaza -- ca --node-preload) bot.mjs\n  curl --proxy http://127.0.0.1:8083 --cacert $(npm run -s plaza -- ca --print-path) https://api.x.com/2/users/me\n`,
    )
    .action((opts: { credentialsFile: string; printPath?: boolean; nodePreload?: boolean }) =>
      run('ca', async () => {
        if (opts.printPath && opts.nodePreload) throw new CliError('--print-path and --node-preload print one path each: name one');
        const d = dropInOf(opts.credentialsFile);
        process.stdout.write(`${opts.nodePreload ? d.node_preload : d.ca_file}\n`);
      }),
    );

  program
    .command('doctor')
    .description("Check that this machine's clients reach the running Plaza through the drop-in proxy: Node with the preload, Python requests, curl; says what to set where they do not.")
    .option('--credentials-file <file>', 'the credentials file of the running Plaza', DEFAULT_FILE)
    .action((opts: { credentialsFile: string }) =>
      run('doctor', async () => {
        const results = await checks(dropInOf(opts.credentialsFile));
        for (const c of results) process.stdout.write(`${c.ok ? 'ok  ' : 'no  '} ${c.what}: ${c.detail}\n`);
        // The shell's own settings are advice; a failed reach is a failure.
        if (results.some((c) => !c.ok && !c.what.endsWith('of this shell'))) process.exitCode = 1;
      }),
    );
}
