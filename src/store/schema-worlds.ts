/** Worlds and their snapshots, in the default world's store (migration 0038-worlds). */
export interface WorldTables {
  worlds: WorldTable;
  world_snapshots: WorldSnapshotTable;
}

export interface WorldTable {
  id: string;
  /** demo, empty, or snapshot (made from a snapshot file). */
  seed: string;
  /** Where the world's store is: an SQLite file, or a PostgreSQL URL. */
  store: string;
  /** The world's credentials (the credentials file's shape, its URLs left out), JSON. */
  credentials: string;
  /** Bumped by every reset and restore: a process holding the world open with an older one opens it again. */
  generation: number;
  created_at: string;
}

export interface WorldSnapshotTable {
  world_id: string;
  /** The name given, or `@seed` for the state reset brings back. */
  name: string;
  /** The whole store as src/worlds/dump.ts writes it, JSON. */
  dump: string;
  created_at: string;
}
