/** The tables of migration 0026: batch compliance jobs and bookmark folders. */
export interface ComplianceMiscTables {
  compliance_jobs: ComplianceJobTable;
  bookmark_folders: BookmarkFolderTable;
  bookmark_folder_posts: BookmarkFolderPostTable;
}

export type ComplianceJobType = 'tweets' | 'posts' | 'users';
export type ComplianceJobStatus = 'created' | 'in_progress' | 'complete' | 'expired' | 'failed';

/** A batch compliance job of an app: ids uploaded once, answered once, each through a secret URL. */
export interface ComplianceJobTable {
  id: string;
  app_id: string;
  type: ComplianceJobType;
  name: string | null;
  resumable: number;
  status: ComplianceJobStatus;
  /** The secrets in upload_url and download_url, as the public platform's signed URLs carry theirs. */
  upload_token: string;
  download_token: string;
  created_at: string;
  upload_expires_at: string;
  download_expires_at: string;
  uploaded_at: string | null;
  completed_at: string | null;
  /** The uploaded ids, one a line. */
  uploaded_ids: string | null;
  /** The answer: newline-delimited JSON, one object per id that needs action. */
  result: string | null;
}

export interface BookmarkFolderTable {
  id: string;
  user_id: string;
  name: string;
  created_at: string;
}

/** A bookmark filed in a folder: the bookmark itself stays in `bookmarks`. */
export interface BookmarkFolderPostTable {
  id: string;
  folder_id: string;
  user_id: string;
  post_id: string;
  created_at: string;
}
