import { Type } from 'typebox';
import { BEARER_SECURITY, type Guards } from '../../platform/auth.js';
import { err, errorResponses, type App, offsetParam, ToolIdParams } from '../../platform/http.js';
import type { CrawlRequest } from './crawl.schemas.js';
import type { CrawlService } from './crawl.service.js';

const tags = ['crawl'];
const bearer = BEARER_SECURITY;
const authErrors = { 401: err, 403: err };
const JobIdParams = Type.Object({ job_id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Crawl job id' }) });

/** Crawl a company website into a profile (spec 4.6). Routes only parse, guard and shape. */
export async function crawlRoutes(app: App, opts: { crawl: CrawlService; guards: Guards }) {
  const { crawl, guards } = opts;

  app.post('', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'crawl.run',
      tags,
      summary: 'Crawl a website now and return the saved profile',
      description:
        'Fetches the site politely (robots.txt, sitemap, at most max_pages pages), extracts what it states, analyses it into a profile and saves it ' +
        '(a known domain is updated; fields its owner edited by hand are kept). Owners may crawl a site whose domain their email address proves, ' +
        'or a company they own; administrators any site. adaptive_retry tries other strategies when the site yields too little. ' +
        'Refused addresses (private, loopback, metadata) are 422 at body.url; an unreadable site is 400, a timeout 504; a crawl of the same site already running is 409.',
      security: bearer,
      querystring: Type.Object({
        track_job: Type.Optional(Type.Boolean({ default: true, description: 'Record the crawl as a job (GET /api/crawl/{job_id})' })),
        adaptive_retry: Type.Optional(Type.Boolean({ default: false, description: 'When the site yields too little, retry with other entry pages, the sitemap only and slower pacing' })),
      }),
      body: Type.Ref('CrawlRequest'),
      response: { 200: Type.Ref('CrawlResult'), 400: err, ...authErrors, 409: err, 503: err, 504: err, ...errorResponses },
    },
    handler: async (req) => {
      const q = req.query as { track_job?: boolean; adaptive_retry?: boolean };
      return crawl.crawlNow(req.principal!, req.body as CrawlRequest, { trackJob: q.track_job ?? true, adaptiveRetry: q.adaptive_retry ?? false });
    },
  });

  app.post('/start', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'crawl.start',
      tags,
      summary: 'Start a crawl in the background',
      description: 'Queues the crawl and answers at once with the job id; follow it at GET /api/crawl/{job_id}. Same ownership rule as POST /api/crawl. Adaptive retry is on.',
      security: bearer,
      body: Type.Ref('CrawlRequest'),
      response: { 200: Type.Ref('CrawlStarted'), ...authErrors, 409: err, ...errorResponses },
    },
    handler: async (req) => crawl.start(req.principal!, req.body as CrawlRequest),
  });

  app.post('/admin', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'crawl.adminRun',
      tags,
      summary: 'Crawl any website now (administrators)',
      description: 'As POST /api/crawl without the ownership rule; the job is tracked and adaptive retry is on.',
      security: bearer,
      body: Type.Ref('CrawlRequest'),
      response: { 200: Type.Ref('CrawlResult'), 400: err, ...authErrors, 409: err, 503: err, 504: err, ...errorResponses },
    },
    handler: async (req) => crawl.crawlNow(req.principal!, req.body as CrawlRequest, { trackJob: true, adaptiveRetry: true }),
  });

  app.get('/admin/stats', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'crawl.adminStats',
      tags,
      summary: 'Crawl statistics over the last hours',
      description: 'Counts by status, success rate, median duration of successful crawls and the most frequent error kinds, for jobs created in the window.',
      security: bearer,
      querystring: Type.Object({ hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 168, default: 24 })) }),
      response: { 200: Type.Ref('CrawlStats'), ...authErrors, ...errorResponses },
    },
    handler: async (req) => crawl.stats((req.query as { hours?: number }).hours ?? 24),
  });

  app.get('/admin/recent', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'crawl.adminRecent',
      tags,
      summary: 'Recent crawl jobs, newest first',
      security: bearer,
      querystring: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100 })),
        offset: offsetParam(),
        status: Type.Optional(Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')], { description: 'Only jobs in this status' })),
      }),
      response: { 200: Type.Ref('CrawlRecent'), ...authErrors, ...errorResponses },
    },
    handler: async (req) => {
      const q = req.query as { limit?: number; offset?: number; status?: string };
      return crawl.adminRecent({ limit: q.limit ?? 100, offset: q.offset ?? 0, status: q.status });
    },
  });

  app.get('/admin/held', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'crawl.adminHeld',
      tags,
      summary: 'Values crawls held back for confirmation, every company, oldest first',
      description: 'A crawled name, phone, city, country or address below its publish threshold is not published but waits here (and on the owner\'s profile screen) until an owner or an administrator uses or dismisses it.',
      security: bearer,
      querystring: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
        offset: offsetParam(),
      }),
      response: { 200: Type.Ref('CrawlHeldQueue'), ...authErrors, ...errorResponses },
    },
    handler: async (req) => {
      const q = req.query as { limit?: number; offset?: number };
      return crawl.adminHeld({ limit: q.limit ?? 50, offset: q.offset ?? 0 });
    },
  });

  app.get('/admin/recent/:job_id', {
    onRequest: guards.requireAdmin,
    schema: {
      operationId: 'crawl.adminJob',
      tags,
      summary: 'One crawl job with its raw error and event timeline',
      security: bearer,
      params: JobIdParams,
      response: { 200: Type.Ref('CrawlJobDetail'), ...authErrors, 404: err, ...errorResponses },
    },
    handler: async (req) => crawl.adminDetail((req.params as { job_id: number }).job_id),
  });

  app.get('/my-latest', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'crawl.myLatest',
      tags,
      summary: "The caller's latest crawl and its company",
      security: bearer,
      response: { 200: Type.Ref('CrawlMyLatest'), ...authErrors, ...errorResponses },
    },
    handler: async (req) => crawl.myLatest(req.principal!),
  });

  app.get('/company/:tool_id/provenance', {
    onRequest: guards.requireCompanyManager('tool_id'),
    schema: {
      operationId: 'crawl.provenance',
      tags,
      summary: "Where the company's crawled fields came from",
      description:
        "From the company's latest successful crawl: for name, phone, city, country and address, the value found, the page, the method and a confidence. " +
        'For an owner of the company or an administrator; another company is 404. A company never crawled answers job_id null and no fields.',
      security: bearer,
      params: ToolIdParams,
      response: { 200: Type.Ref('CrawlProvenance'), 401: err, 404: err, ...errorResponses },
    },
    handler: async (req) => crawl.provenance((req.params as { tool_id: string }).tool_id),
  });

  app.get('/:job_id', {
    onRequest: guards.optionalBearer,
    schema: {
      operationId: 'crawl.status',
      tags,
      summary: 'Status and progress of a crawl job',
      description:
        'Anyone: status (queued, running, succeeded, failed), stage, pages fetched and timing (CrawlJobProgress). ' +
        'The user who asked for the crawl, an owner of its company or an administrator (bearer) also get the URL, company, error and what changed (CrawlJob).',
      params: JobIdParams,
      security: [{}, ...bearer],
      response: { 200: Type.Union([Type.Ref('CrawlJob'), Type.Ref('CrawlJobProgress')]), 404: err, ...errorResponses },
    },
    handler: async (req) => crawl.getJob((req.params as { job_id: number }).job_id, req.principal),
  });
}
