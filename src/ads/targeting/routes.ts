import { Type } from '@sinclair/typebox';
import { flag, standardList } from '../http/list.js';
import { adsId, idList, oneOf, text } from '../http/params.js';
import { one, page, pathId, type AdsRoutes } from '../http/route.js';
import { estimateAudience, parseEstimateBody } from './estimate.js';
import { TARGETING_SORTING, createTargetingCriterion, deleteTargetingCriterion, getTargetingCriterion, listTargetingCriteria } from './service.js';
import { OPERATOR_TYPES, TARGETING_TYPES } from './vocabulary.js';
import { TargetingCriterionSchema, targetingCriterionWire } from './wire.js';

/** Targeting criteria (create, list by line items, get, delete) and the audience estimate. */
export function targetingRoutes(ads: AdsRoutes): void {
  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/targeting_criteria',
    rate: 'targeting-read',
    params: {
      line_item_ids: idList().required(),
      targeting_criterion_ids: idList(),
      ...standardList(Object.keys(TARGETING_SORTING.fields)),
    },
    response: Type.Array(TargetingCriterionSchema),
    handler: async (call) => page(await listTargetingCriteria(call.db, call.account, call.params), targetingCriterionWire),
  });

  ads.route({
    method: 'GET',
    url: '/accounts/:account_id/targeting_criteria/:targeting_criterion_id',
    rate: 'targeting-read',
    params: { with_deleted: flag() },
    response: TargetingCriterionSchema,
    handler: async (call) =>
      one(targetingCriterionWire(await getTargetingCriterion(call.db, call.account, pathId(call, 'targeting_criterion_id'), call.params.with_deleted))),
  });

  ads.route({
    method: 'POST',
    url: '/accounts/:account_id/targeting_criteria',
    rate: 'write',
    params: {
      line_item_id: adsId().required(),
      targeting_type: oneOf(TARGETING_TYPES).required(),
      targeting_value: text({ max: 255 }).required(),
      // Listed as required, but the public platform's own example omits it and answers EQ.
      operator_type: oneOf(OPERATOR_TYPES).default('EQ'),
    },
    response: TargetingCriterionSchema,
    handler: async (call) => one(targetingCriterionWire(await createTargetingCriterion(call.actor, call.db, call.account, call.params))),
  });

  ads.route({
    method: 'DELETE',
    url: '/accounts/:account_id/targeting_criteria/:targeting_criterion_id',
    rate: 'write',
    params: {},
    response: TargetingCriterionSchema,
    handler: async (call) => one(targetingCriterionWire(await deleteTargetingCriterion(call.actor, call.db, call.account, pathId(call, 'targeting_criterion_id')))),
  });

  ads.route({
    method: 'POST',
    url: '/accounts/:account_id/audience_estimate',
    rate: 'write',
    params: {},
    handler: async (call) => {
      const criteria = parseEstimateBody(call.body, call.contentType);
      call.echo('targeting_criteria', criteria);
      return one(await estimateAudience(call.db, call.account, criteria, call.actor.ctx.clock.now(), call.actor.ctx.store.dialect));
    },
  });
}
