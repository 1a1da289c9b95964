import { Type } from 'typebox';
import { actorOf, BEARER_SECURITY, type Guards } from '../../platform/auth.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { HeldFieldIdParams } from './held-fields.schemas.js';
import { ToolIdParams } from './tools.schemas.js';
import type { ToolsService } from './tools.service.js';

export interface HeldFieldsRoutesOptions {
  tools: ToolsService;
  guards: Guards;
}

const tags = ['tools'];
const auth = { 401: err, 404: err };

/** Crawled values held below their publish threshold, under /api/tools/{tool_id}/held-fields: owners and administrators (issue 40). */
export async function heldFieldsRoutes(app: App, { tools, guards }: HeldFieldsRoutesOptions): Promise<void> {
  const manager = guards.requireCompanyManager('tool_id');

  app.get('/:tool_id/held-fields', {
    onRequest: manager,
    schema: {
      operationId: 'tools.heldFields', tags, summary: 'Values a crawl read but was not sure of (owner or admin)', security: BEARER_SECURITY,
      description: 'A name, phone, city, country or address read below its publish threshold is not published: it waits here until it is used or dismissed.',
      params: ToolIdParams,
      response: { 200: Type.Ref('HeldFields'), ...auth, ...errorResponses },
    },
  }, async (req) => tools.heldFields(req.params.tool_id));

  app.post('/:tool_id/held-fields/:held_id/accept', {
    onRequest: manager,
    schema: {
      operationId: 'tools.acceptHeldField', tags, summary: 'Use a held value: it is written to the profile (owner or admin)', security: BEARER_SECURITY,
      description: 'The value becomes your edit, as if made in the profile form: in the history, searchable at once, kept by later crawls. 404 when it is no longer waiting.',
      params: HeldFieldIdParams,
      response: { 200: Type.Ref('AcceptHeldFieldResult'), ...auth, ...errorResponses },
    },
  }, async (req) => tools.acceptHeldField(req.params.tool_id, req.params.held_id, actorOf(req)));

  app.post('/:tool_id/held-fields/:held_id/dismiss', {
    onRequest: manager,
    schema: {
      operationId: 'tools.dismissHeldField', tags, summary: 'Dismiss a held value: it is not published nor offered again (owner or admin)', security: BEARER_SECURITY,
      params: HeldFieldIdParams,
      response: { 200: Type.Ref('DismissHeldFieldResult'), ...auth, ...errorResponses },
    },
  }, async (req) => tools.dismissHeldField(req.params.tool_id, req.params.held_id));
}
