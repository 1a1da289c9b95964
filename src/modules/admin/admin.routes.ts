import { Type } from 'typebox';
import { actorOf, BEARER_SECURITY, guardEveryRoute, type Guards } from '../../platform/auth.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { ToolIdParams } from '../companies/tools.schemas.js';
import type { ToolsService } from '../companies/tools.service.js';
import {
  AdminCompaniesQuery,
  AdminCompaniesResponseSchema,
  AuditQuery,
  AuditResponseSchema,
  FeaturedBody,
  LookupQuery,
  LookupResponseSchema,
  RunIdParams,
  SubscriptionBody,
} from './admin.schemas.js';
import type { AdminService } from './admin.service.js';

export interface AdminRoutesOptions {
  tools: ToolsService;
  admin: AdminService;
  guards: Guards;
}

const tags = ['admin'];
const security = BEARER_SECURITY;
const denied = { 401: err, 403: err };

/** Administrators' directory tools, base /api/tools/admin. Every change is written to the audit log. */
export async function adminRoutes(app: App, { tools, admin, guards }: AdminRoutesOptions): Promise<void> {
  // onRequest: credentials are checked before anything else, so a non-admin learns nothing from validation errors.
  guardEveryRoute(app, guards.requireAdmin);

  app.get('/lookup-by-website', {
    schema: {
      operationId: 'admin.lookupByWebsite', tags, security, summary: 'Whether a company exists for a website',
      querystring: LookupQuery,
      response: { 200: LookupResponseSchema, ...denied, ...errorResponses },
    },
  }, async (req) => tools.lookupByWebsite(req.query.website_url));

  app.get('/companies', {
    schema: {
      operationId: 'admin.listCompanies', tags, security, summary: 'All companies, newest first',
      description: 'Keyset paging: pass next_cursor as cursor for the next page (correct while companies are added). offset also works, alone or after a cursor.',
      querystring: AdminCompaniesQuery,
      response: { 200: AdminCompaniesResponseSchema, ...denied, ...errorResponses },
    },
  }, async (req) => tools.adminList(req.query));

  const flag = (path: string, operationId: string, summary: string, description: string, value: boolean) =>
    app.post(path, {
      schema: { operationId, tags, security, summary, description, params: ToolIdParams, response: { 200: Type.Ref('ToolDetailResponse'), ...denied, 404: err, ...errorResponses } },
    }, async (req) => tools.setFlag((req.params as { tool_id: string }).tool_id, 'is_verified', value, actorOf(req)));

  flag('/companies/:tool_id/verify', 'admin.verifyCompany', 'Verify a company', 'Verified companies receive proposals from agents.', true);
  flag('/companies/:tool_id/unverify', 'admin.unverifyCompany', 'Unverify a company', 'Stops new proposals; existing proposals stay as they are.', false);

  app.post('/companies/:tool_id/subscription', {
    schema: {
      operationId: 'admin.setSubscription', tags, security, summary: 'Set a company plan and period by hand',
      params: ToolIdParams, body: SubscriptionBody,
      response: { 200: Type.Ref('ToolDetailResponse'), ...denied, 404: err, ...errorResponses },
    },
  }, async (req) => tools.setSubscription(req.params.tool_id, req.body, actorOf(req)));

  app.post('/companies/:tool_id/featured', {
    schema: {
      operationId: 'admin.setFeatured', tags, security, summary: 'Feature or unfeature a company',
      description:
        'Featured companies are listed by GET /api/tools/featured and first in browsing. Featuring is a pro-plan feature: a company whose plan is not ' +
        'entitled to it is 402 (set its subscription first); un-featuring is always allowed.',
      params: ToolIdParams, body: FeaturedBody,
      response: { 200: Type.Ref('ToolDetailResponse'), ...denied, 402: err, 404: err, ...errorResponses },
    },
  }, async (req) => tools.setFlag(req.params.tool_id, 'is_featured', req.body.featured, actorOf(req)));

  app.post('/reindex', {
    schema: {
      operationId: 'admin.reindex', tags, security, summary: 'Rebuild search indexes and embeddings of every company',
      description: 'Starts a background run (202) and returns it; follow progress with GET /api/tools/admin/reindex/{run_id}. Search keeps answering meanwhile. A second run while one is queued or running is 409.',
      response: { 202: Type.Ref('ReindexRun'), ...denied, 409: err, ...errorResponses },
    },
  }, async (req, reply) => reply.status(202).send(await admin.startReindex(actorOf(req))));

  app.get('/reindex', {
    schema: { operationId: 'admin.reindexLatest', tags, security, summary: 'The latest reindex run and its progress', response: { 200: Type.Ref('ReindexRun'), ...denied, 404: err, ...errorResponses } },
  }, async () => admin.getRun());

  app.get('/reindex/:run_id', {
    schema: { operationId: 'admin.reindexRun', tags, security, summary: 'One reindex run and its progress', params: RunIdParams, response: { 200: Type.Ref('ReindexRun'), ...denied, 404: err, ...errorResponses } },
  }, async (req) => admin.getRun(req.params.run_id));

  app.get('/audit-log', {
    schema: {
      operationId: 'admin.auditLog', tags, security, summary: "Administrators' actions, newest first",
      querystring: AuditQuery,
      response: { 200: AuditResponseSchema, ...denied, ...errorResponses },
    },
  }, async (req) => admin.auditLog(req.query));
}
