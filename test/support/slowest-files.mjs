// A test reporter (node --test-reporter) that prints, after the run, the ten test files that took
// longest, so a slow file is seen where it is added. Node reports a file as a test named by its
// path; files compiled by scripts/test.mjs are named by their sources. With PLAZA_TEST_DURATIONS
// set, every file's time is also merged into that JSON file, which scripts/test.mjs reads to start
// the longest files first.
import fs from 'node:fs';
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
  const durations = process.env.PLAZA_TEST_DURATIONS;
  if (durations) {
    let known = {};
    try {
      known = JSON.parse(fs.readFileSync(durations, 'utf8'));
    } catch {}
    for (const { file, ms } of files) known[file] = Math.round(ms);
    fs.writeFileSync(durations, JSON.stringify(known, null, 1));
  }
}

function sourceOf(file) {
  const built = process.env.PLAZA_TEST_BUILD;
  if (built && file.startsWith(built + path.sep)) return path.relative(built, file).replace(/\.js$/, '.ts');
  return path.relative(process.cwd(), file);
}
