import { findAppById, type AppRow } from '../../auth/store.js';
import type { PlatformContext } from '../context.js';
import { ProblemError, problems } from '../../http/problems.js';
import { parseQuery } from '../../query/parse.js';
import { ruleLimits } from '../stream-rules/service.js';
import { ruleSetOf } from '../stream-rules/store.js';

/**
 * When the filtered stream's rules cannot serve (issue #12 "InvalidRules"). A rule set is invalid
 * when a stored rule no longer parses (a grammar change since it was added), is longer than the
 * app's tier now allows, or when the set holds more rules than that tier's cap (an app moved from
 * enterprise to a self-serve tier keeps rules it may no longer hold). At connection time an invalid
 * set refuses the connection (409, streaming-connection RulesInvalidIssue) and an app without rules
 * is refused too (409, RuleConfigurationIssue: "the filtered stream has no rules", reference §2);
 * an open connection whose rules become invalid is cut with InvalidRules. Emptying the set while
 * connected is no error: a client replacing its rules deletes before it adds.
 */
export async function invalidRuleReason(ctx: PlatformContext, app: AppRow): Promise<string | undefined> {
  const { rules } = await ruleSetOf(ctx.store.db, app.id);
  const limits = ruleLimits(ctx, app);
  if (rules.length > limits.rules) return `The app holds ${rules.length} rules; its ${app.tier} tier allows ${limits.rules}.`;
  for (const rule of rules) {
    if (rule.value.length > limits.length) return `Rule ${rule.id} is ${rule.value.length} characters long; the ${app.tier} tier allows ${limits.length}.`;
    try {
      parseQuery(rule.value);
    } catch {
      return `Rule ${rule.id} no longer parses.`;
    }
  }
  return undefined;
}

/** The reason the app's rules are invalid now (its tier read afresh: a tier change may be the cause), if they are. */
export async function invalidRulesOfApp(ctx: PlatformContext, appId: string): Promise<string | undefined> {
  const app = await findAppById(ctx.store.db, appId);
  return app ? invalidRuleReason(ctx, app) : undefined;
}

/** Refuses a filtered-stream connection the app's rules cannot serve. */
export async function checkRulesForConnection(ctx: PlatformContext, app: AppRow): Promise<void> {
  const { rules } = await ruleSetOf(ctx.store.db, app.id);
  if (rules.length === 0) {
    throw new ProblemError(409, problems.streamingConnection('RuleConfigurationIssue', 'The filtered stream has no rules: add rules with POST /2/posts/search/stream/rules, then connect.'));
  }
  const reason = await invalidRuleReason(ctx, app);
  if (reason) throw new ProblemError(409, problems.streamingConnection('RulesInvalidIssue', `The filtered stream's rules are invalid. ${reason}`));
}
