/**
 * Streaming connections (migration 0010-stream-connections): every connection to a persistent
 * stream of the connections endpoints' list (filtered, sample, firehose, compliance, label, likes),
 * what GET /2/connections lists and the allowance of concurrent connections counts.
 */
export interface StreamConnectionTables {
  stream_connections: StreamConnectionTable;
}

export interface StreamConnectionTable {
  /** The connection's uuid. */
  id: string;
  app_id: string;
  /** The endpoint id of the connections endpoints: filtered_stream, sample_stream, firehose_stream... */
  endpoint_name: string;
  /** The partition asked for (1..n) on partitioned streams; 0 on the others. */
  partition: number;
  client_ip: string;
  connected_at: string;
  /** Null while the connection is open. */
  disconnected_at: string | null;
  /** A disconnect_type (ForceDisconnect, SlowReader, OperationalDisconnect, InvalidRules...), ClientDisconnect or EndTimeReached. */
  disconnect_reason: string | null;
  /** The holding process says the connection lives (every keep-alive tick); an open row not seen for long is a dead process's. */
  seen_at: string;
}
