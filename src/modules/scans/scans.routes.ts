import { Type } from 'typebox';
import { BEARER_SECURITY, type Guards } from '../../platform/auth.js';
import { err, errorResponses, offsetParam, type App } from '../../platform/http.js';
import type { BundleOptions } from './scans.files.js';
import type { ScansServiceImpl } from './scans.service.js';

/** Scans (spec 4.7). Routes only parse, guard and shape; owners of the company or administrators. */
const tags = ['scans'];
const security = BEARER_SECURITY;
const ToolParams = Type.Object({ tool_id: Type.String({ format: 'uuid', description: 'Company (tool) id' }) });
const ownerErrors = { 401: err, 404: err };

export async function scansRoutes(app: App, opts: { scans: ScansServiceImpl; guards: Guards }) {
  const { scans, guards } = opts;
  const manager = guards.requireCompanyManager('tool_id');
  const userId = (req: { principal?: { kind: string; userId?: string } }) => (req.principal?.kind === 'user' ? (req.principal.userId ?? null) : null);

  app.get('/tool/:tool_id/latest', {
    onRequest: manager,
    schema: {
      operationId: 'scans.latest', tags, security,
      summary: 'Latest scan of the company website',
      description: 'The newest scan (queued, running, completed or failed) with every finding (status, evidence, fix), the score, grade, group sub-scores and the change against the previous completed scan. 404 before the first scan.',
      params: ToolParams,
      response: { 200: Type.Ref('Scan'), ...ownerErrors, ...errorResponses },
    },
    handler: async (req) => scans.latest((req.params as { tool_id: string }).tool_id),
  });

  app.get('/tool/:tool_id/history', {
    onRequest: manager,
    schema: {
      operationId: 'scans.history', tags, security,
      summary: 'Scans of the company, newest first',
      params: ToolParams,
      querystring: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
        offset: offsetParam(),
      }),
      response: { 200: Type.Ref('ScanHistory'), ...ownerErrors, ...errorResponses },
    },
    handler: async (req) => {
      const q = req.query as { limit?: number; offset?: number };
      return scans.history((req.params as { tool_id: string }).tool_id, q.limit ?? 10, q.offset ?? 0);
    },
  });

  app.post('/tool/:tool_id/start', {
    onRequest: manager,
    schema: {
      operationId: 'scans.start', tags, security,
      summary: 'Scan the company website for agent readiness',
      description:
        'Queues a scan (202; follow it at GET …/latest). Without force, a completed scan younger than 24 hours is returned (200, reused) and a scan ' +
        'under way is returned (202, reused). A company may start as many scans a calendar month as its plan allows (free 5, pro 100; 402 past that). force=true starts a new scan at most every 180 seconds (429 with Retry-After otherwise); a company never has two scans running. ' +
        'The scanner fetches a fixed list of paths on the company\'s own domain only (at most 30 requests, 2 per second, 8 s timeout, 512 KB per response).',
      params: ToolParams,
      querystring: Type.Object({ force: Type.Optional(Type.Boolean({ default: false })) }),
      response: { 200: Type.Ref('ScanStartResponse'), 202: Type.Ref('ScanStartResponse'), ...ownerErrors, 402: err, 409: err, 429: err, ...errorResponses },
    },
    handler: async (req, reply) => {
      const r = await scans.start({ userId: userId(req) }, (req.params as { tool_id: string }).tool_id, (req.query as { force?: boolean }).force ?? false);
      return reply.code(r.status).send({ reused: r.reused, scan: r.scan });
    },
  });

  app.post('/tool/:tool_id/generate-files', {
    onRequest: manager,
    schema: {
      operationId: 'scans.generateFiles', tags, security,
      summary: 'Generate the agent files bundle',
      description:
        'Builds, from the listing and a completed scan (the latest, or scan_id), an llms.txt, a robots.txt block to merge, JSON-LD for the home page, ' +
        'an MCP server card for the company\'s hosted MCP endpoint, an A2A agent card only when the site already runs an agent endpoint, an API catalog only when ' +
        'an OpenAPI description was found, Link-header recipes, a README, a fix-list prompt and a manifest with hashes. Every file is returned inline, plus a ' +
        'single-use download link for the ZIP (expires after 15 minutes). 409 when there is no completed scan.',
      params: ToolParams,
      querystring: Type.Object({ scan_id: Type.Optional(Type.String({ format: 'uuid' })) }),
      body: Type.Optional(Type.Ref('GenerateFilesRequest')),
      response: { 200: Type.Ref('GenerateFilesResponse'), ...ownerErrors, 409: err, ...errorResponses },
    },
    handler: async (req) => {
      const body = (req.body ?? {}) as BundleOptions;
      return scans.generateFiles({ userId: userId(req) }, (req.params as { tool_id: string }).tool_id, (req.query as { scan_id?: string }).scan_id, body);
    },
  });

  app.get('/download/:token', {
    schema: {
      operationId: 'scans.download', tags,
      summary: 'Download an agent files bundle (ZIP)',
      description: 'The token from generate-files, once: 404 for an unknown token, 410 once it was used or has expired. The ZIP is the same bytes for the same files.',
      params: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }),
      response: { 200: { description: 'The ZIP (store-only, deterministic)', content: { 'application/zip': { schema: Type.String({ format: 'binary' }) } } }, 404: err, 410: err, ...errorResponses },
    },
    handler: async (req, reply) => {
      const { filename, zip } = await scans.download((req.params as { token: string }).token);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(zip);
    },
  });
}
