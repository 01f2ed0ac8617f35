/** The worker numbers leased by live processes (migration 0037-worker-leases). */
export interface WorkerLeaseTables {
  worker_leases: WorkerLeaseTable;
}

/** Worker number `worker` (0 to 1023) is held by `holder` until `expires_at` (wall time, ISO 8601). */
export interface WorkerLeaseTable {
  worker: number;
  holder: string;
  expires_at: string;
}
