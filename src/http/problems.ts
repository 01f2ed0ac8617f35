/**
 * The Problem objects of spec 000 ("Errors"): one constructor per problem type, each carrying
 * exactly the fields the spec lists, the required ones always present. `type` is
 * `{problem_base}/<name>` (base configurable) except `about:blank`.
 */

export type ResourceType = 'user' | 'post' | 'media' | 'list' | 'space' | 'place' | 'poll';
export type Section = 'data' | 'includes';
export type DisconnectType =
  | 'OperationalDisconnect'
  | 'UpstreamOperationalDisconnect'
  | 'ForceDisconnect'
  | 'UpstreamUncleanDisconnect'
  | 'SlowReader'
  | 'InternalError'
  | 'ClientApplicationStateDegraded'
  | 'InvalidRules';
export type ConnectionIssue = 'TooManyConnections' | 'ProvisioningSubscription' | 'RuleConfigurationIssue' | 'RulesInvalidIssue';

export interface Problem {
  type: string;
  title: string;
  status?: number;
  detail?: string;
  [extra: string]: unknown;
}

export interface InvalidRequestItem {
  message: string;
  parameters: Record<string, string[]>;
}

export const PROBLEM_TYPE_NAMES = [
  'about:blank',
  'client-disconnected',
  'client-forbidden',
  'conflict',
  'disallowed-resource',
  'duplicate-rules',
  'invalid-request',
  'invalid-rules',
  'noncompliant-rules',
  'not-authorized-for-field',
  'not-authorized-for-resource',
  'operational-disconnect',
  'resource-not-found',
  'resource-unavailable',
  'rule-cap',
  'streaming-connection',
  'unsupported-authentication',
  'usage-capped',
] as const;
export type ProblemTypeName = (typeof PROBLEM_TYPE_NAMES)[number];

/** A thrown problem: the HTTP status and the body the platform listener renders. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail ?? problem.title);
    this.name = 'ProblemError';
  }
}

/** A thrown Error object (spec 000: `{code, message}`), rendered as application/json. */
export class ErrorObjectError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ErrorObjectError';
  }
}

/** The longest piece of a client's input an error answer repeats back. */
export const MAX_ECHO_CHARS = 128;

/**
 * A client's value as an error answer may repeat it: at most MAX_ECHO_CHARS characters, then an
 * ellipsis. A huge bad value must not come back as a huge answer.
 */
export function clipEcho(value: string, max = MAX_ECHO_CHARS): string {
  if (value.length <= max) return value;
  // Not cutting a surrogate pair in half keeps the answer well-formed UTF-8.
  const end = /[\uD800-\uDBFF]/.test(value[max - 1]) ? max - 1 : max;
  return `${value.slice(0, end)}…`;
}

/**
 * Every string of an error body clipped to `max` characters (messages embed values): the last
 * line of defence, after each echo has been clipped where it is made.
 */
export function clipStrings<T>(value: T, max: number): T {
  if (typeof value === 'string') return clipEcho(value, max) as T;
  if (Array.isArray(value)) return value.map((v) => clipStrings(v, max)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [clipEcho(k, max), clipStrings(v, max)])) as T;
  }
  return value;
}

const resourceLabel = (t: ResourceType) => (t === 'post' ? 'post' : t);

const typed = (name: Exclude<ProblemTypeName, 'about:blank'>): string => name;

/** Whether `type` is a problem's name as the constructors write it (not yet under a base). */
function isProblemName(type: unknown): type is ProblemTypeName {
  return typeof type === 'string' && type !== 'about:blank' && (PROBLEM_TYPE_NAMES as readonly string[]).includes(type);
}

/** A problem as it is answered: its type under the configured base (`{base}/<name>`). */
export function withProblemBase<T extends { type?: unknown }>(problem: T, base: string): T {
  return isProblemName(problem.type) ? { ...problem, type: `${base}/${problem.type}` } : problem;
}

/** The partial errors of a line or delivery written outside a reply (streams, webhooks): under the base, or undefined when none. */
export function errorsUnderBase(errors: readonly Problem[], base: string): Problem[] | undefined {
  return errors.length > 0 ? errors.map((e) => withProblemBase(e, base)) : undefined;
}

/**
 * A JSON answer of the platform listener with every problem in it under the base: the answer
 * itself when it is a problem, and each item of its `errors` (partial errors, stream lines).
 */
export function renderProblemBase(body: unknown, base: string): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  let out = body as Record<string, unknown>;
  if (isProblemName(out.type) && typeof out.title === 'string') out = withProblemBase(out, base);
  if (Array.isArray(out.errors) && out.errors.some((e) => e !== null && typeof e === 'object' && isProblemName((e as Problem).type))) {
    out = { ...out, errors: out.errors.map((e) => (e !== null && typeof e === 'object' ? withProblemBase(e as Problem, base) : e)) };
  }
  return out;
}

/**
 * The problem constructors. They need no context: a problem's `type` is its name here
 * ('invalid-request', or 'about:blank'), and the listener's renderer (`renderProblemBase`, installed
 * by installPlatformErrors) writes `{problem_base}/<name>` as the answer leaves.
 */
export const problems = {
  aboutBlank(status: number, title: string, detail?: string): Problem {
    return { title, type: 'about:blank', status, detail: detail ?? title };
  },

  clientDisconnected(detail = 'The client disconnected before the response was sent.'): Problem {
    return { title: 'Client Disconnected', detail, type: typed('client-disconnected') };
  },

  clientForbidden(p: { reason: 'official-client-forbidden' | 'client-not-enrolled'; registration_url: string; detail: string }): Problem {
    return { title: 'Client Forbidden', detail: p.detail, reason: p.reason, registration_url: p.registration_url, type: typed('client-forbidden') };
  },

  conflict(detail: string): Problem {
    return { title: 'Conflict', detail, type: typed('conflict') };
  },

  disallowedResource(p: { resource_id: string; resource_type: ResourceType; section: Section; detail?: string }): Problem {
    return {
      title: 'Disallowed Resource',
      detail: p.detail ?? `The ${resourceLabel(p.resource_type)} ${p.resource_id} violates the platform's rules.`,
      resource_id: p.resource_id,
      resource_type: p.resource_type,
      section: p.section,
      type: typed('disallowed-resource'),
    };
  },

  duplicateRules(p: { id: string; value: string }): Problem {
    return { title: 'DuplicateRule', value: p.value, id: p.id, type: typed('duplicate-rules') };
  },

  invalidRequest(errors: InvalidRequestItem[]): Problem {
    if (errors.length === 0) throw new Error('invalid-request needs at least one error');
    return {
      errors: errors.map((e) => ({
        message: e.message,
        parameters: Object.fromEntries(Object.entries(e.parameters).map(([name, values]) => [clipEcho(name), values.map((v) => clipEcho(v))])),
      })),
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: typed('invalid-request'),
    };
  },

  /** The common case: one parameter, one message. */
  invalidParameter(name: string, values: string[], message: string): Problem {
    return problems.invalidRequest([{ message, parameters: { [name]: values } }]);
  },

  invalidRules(detail = 'Rule is invalid'): Problem {
    return { title: 'UnprocessableEntity', detail, type: typed('invalid-rules') };
  },

  noncompliantRules(detail = 'The rule set is not compliant.'): Problem {
    return { title: 'NoncompliantRules', detail, type: typed('noncompliant-rules') };
  },

  notAuthorizedForField(p: { field: string; resource_type: ResourceType; section: Section }): Problem {
    return {
      title: 'Field Authorization Error',
      detail: `Sorry, you are not authorized to access the '${p.field}' field of this ${resourceLabel(p.resource_type)}.`,
      field: p.field,
      resource_type: p.resource_type,
      section: p.section,
      type: typed('not-authorized-for-field'),
    };
  },

  notAuthorizedForResource(p: { value: string; resource_id: string; resource_type: ResourceType; section: Section; parameter: string }): Problem {
    return {
      value: p.value,
      detail: `Sorry, you are not authorized to see the ${resourceLabel(p.resource_type)} with ${p.parameter}: [${p.value}].`,
      title: 'Authorization Error',
      resource_type: p.resource_type,
      parameter: p.parameter,
      resource_id: p.resource_id,
      section: p.section,
      type: typed('not-authorized-for-resource'),
    };
  },

  operationalDisconnect(disconnect_type: DisconnectType, detail = 'This stream has been disconnected for operational reasons.'): Problem {
    return { title: 'operational-disconnect', disconnect_type, detail, type: typed('operational-disconnect') };
  },

  resourceNotFound(p: { parameter: string; value: string; resource_id: string; resource_type: ResourceType; detail?: string }): Problem {
    if (p.parameter.length === 0) throw new Error('resource-not-found needs a parameter name');
    return {
      value: p.value,
      detail: p.detail ?? `Could not find ${resourceLabel(p.resource_type)} with ${p.parameter}: [${p.value}].`,
      title: 'Not Found Error',
      resource_type: p.resource_type,
      parameter: p.parameter,
      resource_id: p.resource_id,
      type: typed('resource-not-found'),
    };
  },

  resourceUnavailable(p: { parameter: string; resource_id: string; resource_type: ResourceType; detail?: string }): Problem {
    if (p.parameter.length === 0) throw new Error('resource-unavailable needs a parameter name');
    return {
      title: 'Resource Unavailable',
      detail: p.detail ?? `The ${resourceLabel(p.resource_type)} ${p.resource_id} is not available to you.`,
      parameter: p.parameter,
      resource_id: p.resource_id,
      resource_type: p.resource_type,
      type: typed('resource-unavailable'),
    };
  },

  ruleCap(detail = 'You have exceeded the maximum number of rules.'): Problem {
    return { title: 'RulesCapExceeded', detail, type: typed('rule-cap') };
  },

  streamingConnection(connection_issue: ConnectionIssue, detail: string): Problem {
    return { title: 'ConnectionException', detail, connection_issue, type: typed('streaming-connection') };
  },

  unsupportedAuthentication(detail: string): Problem {
    return { title: 'Unsupported Authentication', detail, type: typed('unsupported-authentication') };
  },

  usageCapped(p: { period: 'Daily' | 'Monthly'; scope: 'Account' | 'Product' }): Problem {
    return {
      title: 'UsageCapExceeded',
      detail: `Usage cap exceeded: ${p.period} ${p.scope.toLowerCase()} cap`,
      period: p.period,
      scope: p.scope,
      type: typed('usage-capped'),
    };
  },
};
