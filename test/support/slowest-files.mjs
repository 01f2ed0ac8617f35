// A test reporter (node --test-reporter) that prints, after the run, the ten test files that took
// longest, so a slow file is seen where it is added. Node reports a file as a test named by its
// path; files compiled by scripts/test.mjs are named by their sources.
import path from 'node:path';

export default async function* slowestFiles(source) {
  const files = [];
  for await (const event of source) {
    if (event.type === 'test:complete' && event.data.file && event.data.name === event.data.file) {
      files.push({ file: sourceOf(event.data.file), ms: event.data.details.duration_ms });
    }
  }
  files.sort((a, b) => b.ms - a.ms);
  yield `\nslowest test files (of ${files.length}):\n`;
  for (const { file, ms } of files.slice(0, 10)) yield `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`;
}

function sourceOf(file) {
  const built = process.env.PLAZA_TEST_BUILD;
  if (built && file.startsWith(built + path.sep)) return path.relative(built, file).replace(/\.js$/, '.ts');
  return path.relative(process.cwd(), file);
}
