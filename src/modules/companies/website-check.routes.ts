import { Type } from 'typebox';
import { actorOf, BEARER_SECURITY, type Guards } from '../../platform/auth.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { ToolIdParams } from './tools.schemas.js';
import type { ToolsService } from './tools.service.js';
import { AcceptSuggestionBody, WebsiteCheckBody, WebsiteSuggestionIdParams } from './website-check.schemas.js';

export interface WebsiteCheckRoutesOptions {
  tools: ToolsService;
  guards: Guards;
}

const tags = ['tools'];
const auth = { 401: err, 404: err };

/** The monthly website check under /api/tools/{tool_id}/website-check: owners and administrators. */
export async function websiteCheckRoutes(app: App, { tools, guards }: WebsiteCheckRoutesOptions): Promise<void> {
  const manager = guards.requireCompanyManager('tool_id');

  app.get('/:tool_id/website-check', {
    onRequest: manager,
    schema: {
      operationId: 'tools.websiteCheck', tags, summary: 'The monthly website check and what it found (owner or admin)', security: BEARER_SECURITY,
      params: ToolIdParams,
      response: { 200: Type.Ref('WebsiteCheck'), ...auth, ...errorResponses },
    },
  }, async (req) => tools.websiteCheck(req.params.tool_id));

  app.put('/:tool_id/website-check', {
    onRequest: manager,
    schema: {
      operationId: 'tools.setWebsiteCheck', tags, summary: 'Turn the monthly website check on or off (owner or admin)', security: BEARER_SECURITY,
      description: 'On: the website is read again within the hour and then every 30 days; nothing is written to the profile, what differs waits for approval.',
      params: ToolIdParams,
      body: WebsiteCheckBody,
      response: { 200: Type.Ref('WebsiteCheck'), ...auth, ...errorResponses },
    },
  }, async (req) => tools.setWebsiteCheck(req.params.tool_id, req.body.monthly, actorOf(req)));

  app.post('/:tool_id/website-check/suggestions/:suggestion_id/accept', {
    onRequest: manager,
    schema: {
      operationId: 'tools.acceptWebsiteSuggestion', tags, summary: 'Take some of what the website check found (owner or admin)', security: BEARER_SECURITY,
      description: 'The chosen fields become your edit (in the history, undoable like any edit); the chosen pictures are fetched and added to the gallery. What is not chosen is dismissed. 404 when the suggestion is no longer open.',
      params: WebsiteSuggestionIdParams,
      body: AcceptSuggestionBody,
      response: { 200: Type.Ref('AcceptSuggestionResult'), ...auth, ...errorResponses },
    },
  }, async (req) => tools.acceptSuggestion(req.params.tool_id, req.params.suggestion_id, { fields: req.body.fields ?? [], photos: req.body.photos ?? [] }, actorOf(req)));

  app.post('/:tool_id/website-check/suggestions/:suggestion_id/dismiss', {
    onRequest: manager,
    schema: {
      operationId: 'tools.dismissWebsiteSuggestion', tags, summary: 'Dismiss what the website check found (owner or admin)', security: BEARER_SECURITY,
      params: WebsiteSuggestionIdParams,
      response: { 200: Type.Ref('WebsiteCheck'), ...auth, ...errorResponses },
    },
  }, async (req) => tools.dismissSuggestion(req.params.tool_id, req.params.suggestion_id));
}
