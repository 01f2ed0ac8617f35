import fs from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { adminCall, CliError, DEFAULT_FILE, run, table } from '../admin/cli.js';

/**
 * `plaza worlds create|list|credentials|reset|snapshot|snapshots|restore|delete`: the worlds of a
 * running Plaza (issue #36) through its admin interface, addressed by its credentials file's
 * base_url and admin_token (--plaza-credentials). A new world's credentials are printed as JSON,
 * or written where --credentials-file says, in the credentials file's shape. Light on imports, as src/admin/cli.ts.
 */
export function addWorldCommands(program: Command): void {
  const worlds = program
    .command('worlds')
    .description('Isolated worlds in one running Plaza: each with a store and credentials of its own, reset and snapshotted at will.')
    .addHelpText(
      'after',
      '\nExample:\n  npm run plaza -- worlds create --seed empty --credentials-file ./world.json\n  npm run plaza -- worlds snapshot w1a2b3c4d5e clean --file ./fixtures/clean.json\n  npm run plaza -- worlds create --snapshot-file ./fixtures/clean.json\n  npm run plaza -- worlds reset w1a2b3c4d5e\n',
    );
  // --credentials-file is the new world's (the contract); the running Plaza's own file is --plaza-credentials.
  const file = ['--plaza-credentials <file>', 'the credentials file of the running Plaza', DEFAULT_FILE] as const;
  const print = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  const worldPath = (id: string) => `/admin/worlds/${encodeURIComponent(id)}`;

  worlds
    .command('create')
    .description("Make a world and print its credentials (the credentials file's shape) as JSON.")
    .addOption(new Option('--seed <seed>', 'demo: the demo workspace; empty: its first app and user only').choices(['demo', 'empty']).default('demo'))
    .option('--snapshot-file <file>', 'start in the state a snapshot file holds (plaza worlds snapshot --file)')
    .option('--credentials-file <file>', 'write the new world\'s credentials there (a credentials file) instead of printing them')
    .option(...file)
    .action((opts: { seed: string; snapshotFile?: string; credentialsFile?: string; plazaCredentials: string }) =>
      run('worlds create', async () => {
        const body = opts.snapshotFile ? { snapshot_file: path.resolve(opts.snapshotFile) } : { seed: opts.seed };
        const made = await adminCall<{ id: string; credentials: unknown }>(opts.plazaCredentials, 'POST', '/admin/worlds', body);
        if (opts.credentialsFile) {
          fs.writeFileSync(opts.credentialsFile, `${JSON.stringify(made.credentials, null, 2)}\n`, { mode: 0o600 });
          process.stdout.write(`${made.id}\n`);
        } else {
          print(made);
        }
      }),
    );

  worlds
    .command('list')
    .description('List the worlds: id, created_at, seed, snapshots.')
    .option('--json', 'print JSON instead of a table')
    .option(...file)
    .action((opts: { json?: boolean; plazaCredentials: string }) =>
      run('worlds list', async () => {
        const listed = await adminCall<Array<{ id: string; created_at: string; seed: string; snapshots: string[] }>>(opts.plazaCredentials, 'GET', '/admin/worlds');
        if (opts.json) {
          print(listed);
          return;
        }
        process.stdout.write(table([['ID', 'CREATED', 'SEED', 'SNAPSHOTS'], ...listed.map((w) => [w.id, w.created_at, w.seed, w.snapshots.join(',')])]));
      }),
    );

  worlds
    .command('credentials <id>')
    .description("Print a world's credentials as JSON.")
    .option(...file)
    .action((id: string, opts: { plazaCredentials: string }) => run('worlds credentials', async () => print(await adminCall(opts.plazaCredentials, 'GET', `${worldPath(id)}/credentials`))));

  worlds
    .command('reset <id>')
    .description('Put a world back in its seed state (its credentials stay the same).')
    .option(...file)
    .action((id: string, opts: { plazaCredentials: string }) => run('worlds reset', async () => void (await adminCall(opts.plazaCredentials, 'POST', `${worldPath(id)}/reset`))));

  worlds
    .command('snapshot <id> <name>')
    .description("Record a world's whole state under a name; with --file, also write it to a file a world can be created from.")
    .option('--file <file>', 'write the snapshot there too')
    .option(...file)
    .action((id: string, name: string, opts: { file?: string; plazaCredentials: string }) =>
      run('worlds snapshot', async () => print(await adminCall(opts.plazaCredentials, 'POST', `${worldPath(id)}/snapshots`, { name, ...(opts.file ? { file: path.resolve(opts.file) } : {}) }))),
    );

  worlds
    .command('snapshots <id>')
    .description("List a world's snapshots.")
    .option(...file)
    .action((id: string, opts: { plazaCredentials: string }) => run('worlds snapshots', async () => print(await adminCall(opts.plazaCredentials, 'GET', `${worldPath(id)}/snapshots`))));

  worlds
    .command('restore <id> <name>')
    .description("Bring a snapshot's state back (the world's streams end).")
    .option(...file)
    .action((id: string, name: string, opts: { plazaCredentials: string }) =>
      run('worlds restore', async () => void (await adminCall(opts.plazaCredentials, 'POST', `${worldPath(id)}/snapshots/${encodeURIComponent(name)}/restore`))),
    );

  worlds
    .command('delete <id>')
    .description('Delete a world, its store and its snapshots: its credentials stop working at once.')
    .option(...file)
    .action((id: string, opts: { plazaCredentials: string }) =>
      run('worlds delete', async () => {
        if (!id) throw new CliError('name the world to delete');
        await adminCall(opts.plazaCredentials, 'DELETE', worldPath(id));
      }),
    );
}
