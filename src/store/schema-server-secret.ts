/** The server secret, when it is kept in the store (migration 0039-server-secret): one row, id 1. */
export interface ServerSecretTables {
  server_secret: ServerSecretTable;
}

export interface ServerSecretTable {
  id: number;
  /** 32 random bytes, hex. */
  secret: string;
  created_at: string;
}
