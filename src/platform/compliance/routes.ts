import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { requestUrl } from '../../auth/authenticate.js';
import type { PlatformContext } from '../context.js';
import { listParam, parseSelectionText } from '../../http/fields.js';
import type { Listener } from '../../http/server.js';
import type { ComplianceJobStatus, ComplianceJobType } from '../../store/schema-compliance-misc.js';
import { idParams, query } from '../graph/route-kit.js';
import { callerOf } from '../route-auth.js';
import { defaultErrorResponse, ProblemSchema } from '../schemas.js';
import { createComplianceJob, JOB_STATUSES, JOB_TYPES, jobResult, listJobs, lookupComplianceJob, MAX_UPLOAD_BYTES, uploadJobIds } from './service.js';
import type { ComplianceJobRow } from './store.js';
import { COMPLIANCE_JOB_FIELDS, complianceJobWire, jobUrls } from './wire.js';

const appOnly = { schemes: ['app' as const], scopes: [] };
const fieldsParam = listParam(COMPLIANCE_JOB_FIELDS, 'A comma separated list of ComplianceJob fields to display.');
const JobSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    resumable: Type.Optional(Type.Boolean()),
    status: Type.Optional(Type.String()),
    created_at: Type.Optional(Type.String()),
    upload_url: Type.Optional(Type.String()),
    upload_expires_at: Type.Optional(Type.String()),
    download_url: Type.Optional(Type.String()),
    download_expires_at: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
const errors = Type.Optional(Type.Array(Type.Ref(ProblemSchema), { minItems: 1 }));

function appIdOf(request: FastifyRequest): string {
  return callerOf(request).app.id;
}

const baseUrlOf = (request: FastifyRequest) => new URL(requestUrl(request)).origin;

/**
 * Batch compliance jobs (app-only), and Plaza's own upload and download URLs for them: outside
 * the description, as the public platform's signed storage URLs are, opened by their secret alone.
 */
export async function complianceRoutes(app: Listener, ctx: PlatformContext): Promise<void> {
  const render = (request: FastifyRequest, job: ComplianceJobRow, raw: string | undefined) =>
    complianceJobWire(job, jobUrls(baseUrlOf(request), job), raw === undefined ? undefined : parseSelectionText('compliance_job.fields', raw, COMPLIANCE_JOB_FIELDS));

  app.post(
    '/2/compliance/jobs',
    {
      config: { auth: appOnly },
      schema: {
        operationId: 'createComplianceJobs',
        summary: 'Create a batch compliance job; PUT the ids, one a line, to its upload_url',
        tags: ['Compliance'],
        querystring: query({ 'compliance_job.fields': fieldsParam }),
        body: Type.Object(
          {
            type: Type.String({ enum: [...JOB_TYPES], description: "What the ids are: tweets (or Plaza's name, posts) or users." }),
            name: Type.Optional(Type.String({ maxLength: 64, description: 'A name for the job.' })),
            resumable: Type.Optional(Type.Boolean({ description: 'Recorded and shown; every upload URL takes one PUT.' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ data: JobSchema, errors }), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const fields = request.query['compliance_job.fields'];
      if (fields !== undefined) parseSelectionText('compliance_job.fields', fields, COMPLIANCE_JOB_FIELDS);
      const job = await createComplianceJob(ctx, appIdOf(request), { ...request.body, type: request.body.type as ComplianceJobType });
      return { data: render(request, job, fields) };
    },
  );

  app.get(
    '/2/compliance/jobs',
    {
      config: { auth: appOnly },
      schema: {
        operationId: 'getComplianceJobs',
        summary: "The app's compliance jobs of a type, newest first",
        tags: ['Compliance'],
        querystring: query({
          type: Type.String({ enum: [...JOB_TYPES] }),
          status: Type.Optional(Type.String({ enum: [...JOB_STATUSES] })),
          'compliance_job.fields': fieldsParam,
        }),
        response: {
          200: Type.Object({ data: Type.Optional(Type.Array(JobSchema)), errors, meta: Type.Object({ result_count: Type.Integer({ format: 'int32' }) }) }),
          default: defaultErrorResponse,
        },
      },
    },
    async (request) => {
      const fields = request.query['compliance_job.fields'];
      if (fields !== undefined) parseSelectionText('compliance_job.fields', fields, COMPLIANCE_JOB_FIELDS);
      const jobs = await listJobs(ctx, appIdOf(request), request.query.type as ComplianceJobType, request.query.status as ComplianceJobStatus | undefined);
      return { data: jobs.length > 0 ? jobs.map((j) => render(request, j, fields)) : undefined, meta: { result_count: jobs.length } };
    },
  );

  app.get(
    '/2/compliance/jobs/:id',
    {
      config: { auth: appOnly },
      schema: {
        operationId: 'getComplianceJobsById',
        summary: 'One of the app\'s compliance jobs',
        tags: ['Compliance'],
        params: idParams('id'),
        querystring: query({ 'compliance_job.fields': fieldsParam }),
        response: { 200: Type.Object({ data: JobSchema, errors }), default: defaultErrorResponse },
      },
    },
    async (request) => {
      const fields = request.query['compliance_job.fields'];
      if (fields !== undefined) parseSelectionText('compliance_job.fields', fields, COMPLIANCE_JOB_FIELDS);
      return { data: render(request, await lookupComplianceJob(ctx, appIdOf(request), request.params.id), fields) };
    },
  );

  await app.register(async (plain) => {
    const files = plain.withTypeProvider<TypeBoxTypeProvider>();
    // The file of ids is whatever the client sends (the public platform asks for text/plain).
    files.removeAllContentTypeParsers();
    files.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
    const token = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) });

    files.put('/compliance/uploads/:token', { schema: { hide: true, params: token } }, async (request, reply) => {
      await uploadJobIds(ctx, request.params.token, Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
      return reply.code(200).type('text/plain; charset=utf-8').send('');
    });

    files.get('/compliance/results/:token', { schema: { hide: true, params: token } }, async (request, reply) => {
      const body = await jobResult(ctx, request.params.token);
      return reply.type('application/x-ndjson; charset=utf-8').header('cache-control', 'no-store').send(body);
    });
  });
}
