import { Type } from '@sinclair/typebox';
import { flag, q, standardList } from '../http/list.js';
import { idList, oneOf, oneOfList, text } from '../http/params.js';
import { one, page, type AdsRoutes } from '../http/route.js';
import {
  ACCOUNT_APP_SORTING,
  ACCOUNT_FEATURES,
  ACCOUNT_SORTING,
  INDUSTRY_TYPES,
  accountFeatures,
  accountToShow,
  changeFeatures,
  createSandboxAccount,
  deleteAccount,
  listAccountApps,
  listAccounts,
  updateAccount,
} from './service.js';
import { AccountAppSchema, AccountFeaturesSchema, AccountSchema, AuthenticatedUserAccessSchema, accountAppWire, accountWire, authenticatedUserAccessWire } from './wire.js';

/** Accounts and what hangs directly off them (spec 001 "Accounts and related"). */
export function accountRoutes(ads: AdsRoutes): void {
  ads.route({
    method: 'GET',
    url: '/accounts',
    rate: 'global-read',
    params: { account_ids: idList(), q: q(), ...standardList(Object.keys(ACCOUNT_SORTING.fields)) },
    response: Type.Array(AccountSchema),
    handler: async (call) => page(await listAccounts(call.actor, call.db, call.params), accountWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id',
    rate: 'entity-read',
    deletedAccount: true,
    params: { with_deleted: flag() },
    response: AccountSchema,
    handler: async (call) => one(accountWire(accountToShow(call.access, call.params.with_deleted))),
  });

  ads.route({
    method: 'PUT',
    url: '/accounts/:account_id',
    rate: 'write',
    params: { name: text({ max: 255 }), industry_type: oneOf(INDUSTRY_TYPES) },
    response: AccountSchema,
    handler: async (call) => one(accountWire(await updateAccount(call.actor, call.db, call.account, call.params))),
  });

  ads.route({
    method: 'POST',
    url: '/accounts',
    rate: 'write',
    sandboxOnly: true,
    params: {},
    // The public platform answers this one with an array (shared/reference/ads.md §2).
    response: Type.Array(AccountSchema),
    handler: async (call) => ({ next_cursor: null, data: [accountWire(await createSandboxAccount(call.actor, call.db))] }),
  });

  ads.route({
    method: 'DELETE',
    url: '/accounts/:account_id',
    rate: 'write',
    sandboxOnly: true,
    deletedAccount: true,
    params: {},
    response: AccountSchema,
    handler: async (call) => one(accountWire(await deleteAccount(call.actor, call.db, call.account))),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/account_apps',
    rate: 'account-read',
    params: standardList(Object.keys(ACCOUNT_APP_SORTING.fields)),
    response: Type.Array(AccountAppSchema),
    handler: async (call) => page(await listAccountApps(call.db, call.account, call.params), accountAppWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/authenticated_user_access',
    rate: 'account-read',
    params: {},
    response: AuthenticatedUserAccessSchema,
    handler: async (call) => one(authenticatedUserAccessWire(call.caller.user.id, call.access.permissions)),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/features',
    rate: 'account-read',
    params: { feature_keys: oneOfList(ACCOUNT_FEATURES) },
    response: AccountFeaturesSchema,
    handler: async (call) => one(await accountFeatures(call.db, call.account, call.params.feature_keys)),
  });

  for (const [method, add] of [['POST', true], ['DELETE', false]] as const) {
    ads.route({
      method,
      url: '/accounts/:account_id/features',
      rate: 'write',
      sandboxOnly: true,
      params: { feature_keys: oneOfList(ACCOUNT_FEATURES).required() },
      response: AccountFeaturesSchema,
      handler: async (call) => one(await changeFeatures(call.actor, call.db, call.account, call.params.feature_keys, add)),
    });
  }
}
