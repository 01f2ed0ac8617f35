/**
 * The subtitle tracks of videos (migration 0027-media-subtitles). Conventions as in schema.ts.
 */
export interface MediaSubtitleTables {
  media_subtitles: MediaSubtitleTable;
}

/** One track: a video's subtitles in one language, an uploaded SRT file (POST /2/media/subtitles). */
export interface MediaSubtitleTable {
  /** The id of the video media. */
  media_id: string;
  /** Two capital letters, as the reference's pattern ^[A-Z]{2}$; one track per language and video. */
  language_code: string;
  /** The id of the subtitle media (type subtitles). */
  subtitle_media_id: string;
  display_name: string;
  created_at: string;
  updated_at: string;
}
