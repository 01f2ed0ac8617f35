import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_PROBLEM_BASE } from '../../src/config.js';
import { PROBLEM_TYPE_NAMES, problems, renderProblemBase, type Problem } from '../../src/http/problems.js';

/** Every constructor with the extra fields the spec lists for its type (spec 000 "Errors"). */
const built: Record<string, { problem: Problem; extra: string[] }> = {
  'about:blank': { problem: problems.aboutBlank(404, 'Not Found'), extra: [] },
  'client-disconnected': { problem: problems.clientDisconnected(), extra: [] },
  'client-forbidden': {
    problem: problems.clientForbidden({ reason: 'client-not-enrolled', registration_url: 'https://example.com/enroll', detail: 'Enroll first.' }),
    extra: ['reason', 'registration_url'],
  },
  conflict: { problem: problems.conflict('A job is in progress.'), extra: [] },
  'disallowed-resource': { problem: problems.disallowedResource({ resource_id: '1', resource_type: 'post', section: 'data' }), extra: ['resource_id', 'resource_type', 'section'] },
  'duplicate-rules': { problem: problems.duplicateRules({ id: '12', value: 'cats' }), extra: ['id', 'value'] },
  'invalid-request': { problem: problems.invalidRequest([{ message: 'bad', parameters: { ids: ['x'] } }]), extra: ['errors'] },
  'invalid-rules': { problem: problems.invalidRules(), extra: [] },
  'noncompliant-rules': { problem: problems.noncompliantRules(), extra: [] },
  'not-authorized-for-field': { problem: problems.notAuthorizedForField({ field: 'non_public_metrics', resource_type: 'post', section: 'data' }), extra: ['field', 'resource_type', 'section'] },
  'not-authorized-for-resource': {
    problem: problems.notAuthorizedForResource({ value: '1', resource_id: '1', resource_type: 'post', section: 'includes', parameter: 'ids' }),
    extra: ['value', 'resource_id', 'resource_type', 'section', 'parameter'],
  },
  'operational-disconnect': { problem: problems.operationalDisconnect('SlowReader'), extra: ['disconnect_type'] },
  'resource-not-found': { problem: problems.resourceNotFound({ parameter: 'ids', value: '9', resource_id: '9', resource_type: 'post' }), extra: ['parameter', 'value', 'resource_id', 'resource_type'] },
  'resource-unavailable': { problem: problems.resourceUnavailable({ parameter: 'id', resource_id: '9', resource_type: 'user' }), extra: ['parameter', 'resource_id', 'resource_type'] },
  'rule-cap': { problem: problems.ruleCap(), extra: [] },
  'streaming-connection': { problem: problems.streamingConnection('TooManyConnections', 'Too many.'), extra: ['connection_issue'] },
  'unsupported-authentication': { problem: problems.unsupportedAuthentication('Use user context.'), extra: [] },
  'usage-capped': { problem: problems.usageCapped({ period: 'Monthly', scope: 'Product' }), extra: ['period', 'scope'] },
};

test('all 18 problem types of the spec have a constructor', () => {
  assert.equal(PROBLEM_TYPE_NAMES.length, 18);
  assert.deepEqual(Object.keys(built).sort(), [...PROBLEM_TYPE_NAMES].sort());
});

for (const [name, { problem, extra }] of Object.entries(built)) {
  test(`problem ${name}: type is {problem_base}/${name} (or about:blank), title present, and exactly the extra fields the spec lists`, () => {
    const answered = renderProblemBase(problem, DEFAULT_PROBLEM_BASE) as Problem;
    assert.equal(answered.type, name === 'about:blank' ? 'about:blank' : `${DEFAULT_PROBLEM_BASE}/${name}`);
    assert.equal(typeof problem.title, 'string');
    assert.ok(problem.title.length > 0);
    const present = Object.keys(problem).filter((k) => !['type', 'title', 'status', 'detail'].includes(k));
    assert.deepEqual(present.sort(), [...extra].sort());
    for (const field of extra) assert.notEqual(problem[field], undefined, `${field} is present`);
  });
}

test('the problem base is configurable and added by the renderer; about:blank stays about:blank', () => {
  const base = 'https://api.x.com/2/problems';
  assert.equal(problems.conflict('x').type, 'conflict', 'a constructor needs no context: the type is the name');
  assert.equal((renderProblemBase(problems.conflict('x'), base) as Problem).type, `${base}/conflict`);
  assert.equal((renderProblemBase(problems.aboutBlank(401, 'Unauthorized'), base) as Problem).type, 'about:blank');
});

test('the renderer puts the partial errors of an answer under the base, and leaves other members alone', () => {
  const base = 'https://api.x.com/2/problems';
  const notFound = problems.resourceNotFound({ parameter: 'ids', value: '9', resource_id: '9', resource_type: 'post' });
  const body = { data: [{ id: '1', type: 'conflict' }], errors: [notFound, { message: 'not a problem', type: 'other' }] };
  const answered = renderProblemBase(body, base) as typeof body;
  assert.equal(answered.errors[0].type, `${base}/resource-not-found`);
  assert.deepEqual(answered.errors[1], { message: 'not a problem', type: 'other' });
  assert.equal(answered.data[0].type, 'conflict', 'only problems are rewritten');
  assert.equal(notFound.type, 'resource-not-found', 'the problem itself is not changed');
});

test('invalid-request: errors is an array of at least one {message, parameters: map of name to array of strings}', () => {
  assert.throws(() => problems.invalidRequest([]));
  const p = problems.invalidParameter('max_results', ['0'], 'The `max_results` query parameter value [0] is not between 5 and 100');
  assert.deepEqual(p.errors, [{ message: 'The `max_results` query parameter value [0] is not between 5 and 100', parameters: { max_results: ['0'] } }]);
  assert.equal(p.title, 'Invalid Request');
  assert.equal(p.detail, 'One or more parameters to your request was invalid.');
});

test('resource-not-found and resource-unavailable: parameter has min length 1', () => {
  assert.throws(() => problems.resourceNotFound({ parameter: '', value: '1', resource_id: '1', resource_type: 'post' }));
  assert.throws(() => problems.resourceUnavailable({ parameter: '', resource_id: '1', resource_type: 'post' }));
});

test('resource-not-found detail reads as on the public platform', () => {
  assert.equal(problems.resourceNotFound({ parameter: 'ids', value: '5', resource_id: '5', resource_type: 'post' }).detail, 'Could not find post with ids: [5].');
  assert.equal(problems.resourceNotFound({ parameter: 'ids', value: '5', resource_id: '5', resource_type: 'post' }).title, 'Not Found Error');
});
