/**
 * Tables of post writing, media upload, polls and communities (migration 0004-posts-media),
 * and the columns that migration adds to the foundation's posts and media tables.
 */
export interface PostsTables {
  polls: PollTable;
  communities: CommunityTable;
  community_members: CommunityMemberTable;
  media_uploads: MediaUploadTable;
}

declare module './schema.js' {
  /** Columns of posts added by 0004: indexed copies of what referenced_posts says, and write state. */
  interface PostTable {
    /** The post this one replies to (referenced_posts type replied_to). */
    in_reply_to_post_id: string | null;
    /** The post this one quotes (type quoted). */
    quoted_post_id: string | null;
    /** The post this one reposts (type reposted): a repost is a post of the reposter. */
    reposted_post_id: string | null;
    /** A community post also shown to the author's followers (spec 000: share_with_followers). */
    share_with_followers: number;
    /** The conversation's author hid this reply (PUT /2/posts/{id}/hidden). */
    reply_hidden: number;
    /** The next version of an edited post; null for the latest version. */
    superseded_by_id: string | null;
    /** 0035: the author disclosed AI-generated media (POST /2/posts made_with_ai). */
    made_with_ai?: number;
    /** 0035: the direct-message deep link the post carries (POST /2/posts direct_message_deep_link). */
    dm_deep_link?: string | null;
  }

  /** Columns of media added by 0004. */
  interface MediaTable {
    /** post_image, post_gif, post_video, dm_image, dm_gif, dm_video, amplify_video. */
    media_category: string | null;
    /** JSON array of user ids who may attach the media besides its owner; null: nobody else. */
    additional_owners: string | null;
  }
}

export interface PollOption {
  position: number;
  label: string;
  votes: number;
}

export interface PollTable {
  id: string;
  post_id: string;
  /** JSON array of PollOption. */
  options: string;
  duration_minutes: number;
  end_datetime: string;
  created_at: string;
}

export interface CommunityTable {
  id: string;
  name: string;
  description: string;
  /** Public or Closed (the public platform's `access`). */
  access: string;
  /** Open or RestrictedJoinRequestsRequireAdminApproval (the public platform's `join_policy`). */
  join_policy: string;
  creator_id: string;
  member_count: number;
  created_at: string;
}

export interface CommunityMemberTable {
  /** Time-ordered: the paging key of member lists. */
  id: string;
  community_id: string;
  user_id: string;
  /** admin, moderator or member. */
  role: string;
  created_at: string;
}

/** A chunked upload between INIT and FINALIZE; the media row exists from FINALIZE on. */
export interface MediaUploadTable {
  /** The media id the client uses for APPEND, FINALIZE and STATUS. */
  id: string;
  media_key: string;
  owner_user_id: string;
  media_type: string;
  media_category: string;
  total_bytes: number;
  /** JSON array of user ids. */
  additional_owners: string;
  /** uploading until FINALIZE, then finalized. */
  state: string;
  created_at: string;
  expires_at: string;
}
