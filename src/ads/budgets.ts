import { AdsError } from './http/errors.js';

/**
 * Budgets of campaigns and line items: amounts are micros greater than zero, and the daily
 * budget is at most the total budget when both are set (spec 001 "Line items"; shared/
 * reference/ads.md §3 for campaigns).
 */
export function checkBudgets(b: { daily: number | null; total: number | null }, given: { daily: boolean; total: boolean }): void {
  if (given.daily && b.daily !== null && b.daily <= 0) {
    throw AdsError.invalidParameter('daily_budget_amount_local_micro', 'daily_budget_amount_local_micro must be greater than zero');
  }
  if (given.total && b.total !== null && b.total <= 0) {
    throw AdsError.invalidParameter('total_budget_amount_local_micro', 'total_budget_amount_local_micro must be greater than zero');
  }
  if (b.daily !== null && b.total !== null && b.daily > b.total) {
    const parameter = given.daily || !given.total ? 'daily_budget_amount_local_micro' : 'total_budget_amount_local_micro';
    throw AdsError.invalidParameter(
      parameter,
      `daily_budget_amount_local_micro (${b.daily}) must be less than or equal to total_budget_amount_local_micro (${b.total})`,
    );
  }
}
