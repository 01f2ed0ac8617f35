import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/store.js';

// An SQLite file's store, whatever DATABASE_URL says: this is the embedded store's own behaviour.
async function withFileStore(run: (store: Store, file: string) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-checkpoints-'));
  const file = path.join(dir, 'plaza.sqlite');
  const errors: Error[] = [];
  const store = await openStore(file, (err) => errors.push(err));
  try {
    await sql`create table scratch (n integer primary key, body blob not null)`.execute(store.db);
    await run(store, file);
    assert.deepEqual(errors, []);
  } finally {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes `megabytes` of rows in one transaction. */
async function writeMegabytes(store: Store, megabytes: number, from = 0): Promise<void> {
  await store.db.transaction().execute(async (tx) => {
    for (let i = 0; i < megabytes * 16; i++) await sql`insert into scratch (n, body) values (${from + i}, ${Buffer.alloc(64 * 1024, i % 251)})`.execute(tx);
  });
}

const walBytes = (file: string) => (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);

test('a commit that leaves a long write-ahead log has it copied by a worker thread, and the next transaction starts the log over', async () => {
  await withFileStore(async (store, file) => {
    assert.ok(store.checkpoints, 'a file store checkpoints in the background');
    await writeMegabytes(store, 12);
    assert.ok(walBytes(file) > 12 * 1024 * 1024, `the commit itself copied nothing: the log holds ${walBytes(file)} bytes`);
    const running = store.checkpoints.running();
    assert.ok(running, 'the commit started a checkpoint');
    await running;
    // Every page is in the database file now: another connection reading the file alone sees them.
    const reader = new SQLite(file, { readonly: true });
    try {
      assert.equal(reader.prepare('select count(*) as n from scratch').pluck().get(), 12 * 16);
    } finally {
      reader.close();
    }
    await writeMegabytes(store, 1, 1000);
    assert.ok(walBytes(file) <= 4 * 1024 * 1024 + 64 * 1024 * 2, `the log started over: ${walBytes(file)} bytes`);
  });
});

test('a transaction that begins while a checkpoint runs waits for it, and reads and writes stay whole', async () => {
  await withFileStore(async (store, file) => {
    await writeMegabytes(store, 8);
    assert.ok(store.checkpoints!.running());
    // Begun at once, while the worker copies: it waits its turn, so it finds the log all copied
    // and starts it over (begun during the copy, it would have appended to the 8 MB log).
    await writeMegabytes(store, 1, 500);
    assert.ok(walBytes(file) <= 4 * 1024 * 1024 + 64 * 1024 * 2, `the log started over: ${walBytes(file)} bytes`);
    const { rows } = await sql<{ n: number }>`select count(*) as n from scratch`.execute(store.db);
    assert.equal(rows[0].n, 8 * 16 + 16);
  });
});

test('closing the store ends the checkpoint worker and leaves no log behind', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plaza-checkpoints-'));
  const file = path.join(dir, 'plaza.sqlite');
  try {
    const store = await openStore(file);
    await sql`create table scratch (n integer primary key, body blob not null)`.execute(store.db);
    await writeMegabytes(store, 6);
    await store.checkpoints!.now();
    await store.close();
    assert.equal(fs.existsSync(`${file}-wal`), false, 'the last connection to close removed the log');
    const reopened = new SQLite(file, { readonly: true });
    try {
      assert.equal(reopened.prepare('select count(*) as n from scratch').pluck().get(), 6 * 16);
    } finally {
      reopened.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
