import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The arguments to `node` that run the `plaza` command (src/main.ts) as `npm run plaza` does:
 * through tsx, or, in a run of `npm test`, the same sources compiled with the test files
 * (scripts/test.mjs), which a child process loads in a fraction of the time.
 */
export function plazaArgs(...args: string[]): string[] {
  const built = process.env.PLAZA_TEST_BUILD;
  return built ? ['--enable-source-maps', path.join(built, 'src/main.js'), ...args] : ['--import', 'tsx', path.join(ROOT, 'src/main.ts'), ...args];
}

/** Runs the CLI to its end as a user would, with a bounded time. */
export function plazaCli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, plazaArgs(...args), { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
