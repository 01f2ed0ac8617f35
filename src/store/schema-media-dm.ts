/** The tables of migration 0022: media analytics counts and DM blocks. */
export interface MediaDmTables {
  media_metric_hours: MediaMetricHourTable;
  dm_blocks: DmBlockTable;
}

/** Counts of one media in one hour (GET /2/media/analytics reads them by bucket). */
export interface MediaMetricHourTable {
  media_key: string;
  hour: string;
  video_views: number;
  playback_start: number;
  playback25: number;
  playback50: number;
  playback75: number;
  playback_complete: number;
  watch_time_ms: number;
}

/** The source refuses direct messages from the target (and the target from the source). */
export interface DmBlockTable {
  source_user_id: string;
  target_user_id: string;
  created_at: string;
}
