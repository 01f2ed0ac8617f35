/**
 * Tables of audiences, do-not-reach lists, audience permissions and product catalogs (migration
 * 0012-ads-audiences), and the users' phone numbers the audience matching reads.
 */
export interface AdsAudienceTables {
  user_phone_numbers: UserPhoneNumberTable;
  ads_custom_audiences: AdsCustomAudienceTable;
  ads_do_not_reach_lists: AdsDoNotReachListTable;
  ads_audience_users: AdsAudienceUserTable;
  ads_audience_permissions: AdsAudiencePermissionTable;
  ads_product_catalogs: AdsProductCatalogTable;
  ads_products: AdsProductTable;
  ads_product_sets: AdsProductSetTable;
}

export interface UserPhoneNumberTable {
  user_id: string;
  /** E.164: '+' and digits. */
  phone_number: string;
  created_at: string;
}

/** What audiences and do-not-reach lists share. */
export interface AdsUserListColumns {
  id: string;
  /** The owning account. */
  account_id: string;
  name: string;
  description: string | null;
  /** Until when the list shows PROCESSING after a change of its users. */
  processing_until: string | null;
  created_at: string;
  updated_at: string;
  deleted: number;
}

export interface AdsCustomAudienceTable extends AdsUserListColumns {
  audience_type: string;
}

export type AdsDoNotReachListTable = AdsUserListColumns;

/** One hashed identifier of an audience or do-not-reach list (`list_id`), and the Plaza user it matched. */
export interface AdsAudienceUserTable {
  list_id: string;
  key_type: string;
  /** A digest's 32 bytes; a partner_user_id's UTF-8 bytes (see identifierBytes). */
  key_hash: Buffer;
  user_id: string | null;
  expires_at: string;
}

export interface AdsAudiencePermissionTable {
  id: string;
  audience_id: string;
  granted_account_id: string;
  permission_level: string;
  created_at: string;
  updated_at: string;
  deleted: number;
}

export interface AdsProductCatalogTable {
  id: string;
  environment: string;
  user_id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface AdsProductTable {
  product_key: string;
  catalog_id: string;
  /** The advertiser's product id (SKU). */
  id: string;
  item_group_id: string | null;
  item_group_key: string | null;
  /** JSON object: the product's fields as submitted (normalised). */
  fields: string;
  created_at: string;
  updated_at: string;
}

export interface AdsProductSetTable {
  id: string;
  catalog_id: string;
  name: string;
  description: string | null;
  type: string;
  /** JSON array of {attribute, operator, value}. */
  filters: string;
  /** JSON array of product keys (MANUAL sets). */
  product_keys: string;
  created_at: string;
  updated_at: string;
}
