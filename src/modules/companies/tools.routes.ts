import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { actorOf, BEARER_SECURITY, type Guards } from '../../platform/auth.js';
import { readSingleFileUpload } from '../../platform/multipart-upload.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { LOGO_MAX_BYTES, LOGO_MAX_INPUT_PX, LOGO_OUTPUT_PX } from './logo.js';
import {
  AiEditRequestSchema,
  DeleteResponseSchema,
  EditHistoryQuery,
  EditHistorySchema,
  FeaturedQuery,
  LogoResponseSchema,
  LogoUploadBodySchema,
  RecentQuery,
  ToolIdParams,
  ToolListQuery,
  ToolListSchema,
  UndoResponseSchema,
} from './tools.schemas.js';
import type { ToolsService } from './tools.service.js';

export interface ToolsRoutesOptions {
  tools: ToolsService;
  guards: Guards;
}

/** The caller as an editing actor (the guards have already verified the token). */

const auth401 = { 401: err };
const tags = ['tools'];
const bearer = BEARER_SECURITY;

/** Dashboard API for companies ("tools"), base /api/tools. Administrators' routes live in modules/admin. */
export async function toolsRoutes(app: App, { tools, guards }: ToolsRoutesOptions): Promise<void> {
  // Scoped to this plugin: only the logo upload reads multipart bodies.
  await app.register(multipart, { limits: { fileSize: LOGO_MAX_BYTES, files: 2, fields: 2, parts: 4 } });
  // Guards run onRequest: credentials and ownership are checked before the body is read or validated.
  const manager = guards.requireCompanyManager('tool_id');

  app.get('/', {
    // GET /api/tools exactly (no second /api/tools/ route in the OpenAPI document).
    prefixTrailingSlash: 'no-slash',
    schema: {
      operationId: 'tools.list', tags, summary: 'List companies (keyword search)',
      description: 'Without q: the directory, featured first, then verified, then by name. With q: companies matching any of the words (full-text index), best first.',
      querystring: ToolListQuery,
      response: { 200: ToolListSchema, ...errorResponses },
    },
  }, async (req) => tools.list(req.query));

  app.get('/recent', {
    schema: { operationId: 'tools.recent', tags, summary: 'Newest companies first', querystring: RecentQuery, response: { 200: ToolListSchema, ...errorResponses } },
  }, async (req) => tools.recent(req.query.limit));

  app.get('/featured', {
    schema: { operationId: 'tools.featured', tags, summary: 'Companies featured by an administrator', querystring: FeaturedQuery, response: { 200: ToolListSchema, ...errorResponses } },
  }, async (req) => tools.featured(req.query.limit));

  app.get('/my-tools', {
    onRequest: guards.requireUser,
    schema: {
      operationId: 'tools.mine', tags, summary: "The caller's companies", security: bearer,
      description: 'Companies the signed-in owner manages. An administrator token owns none and gets an empty list.',
      response: { 200: ToolListSchema, ...auth401, ...errorResponses },
    },
  }, async (req) => {
    const p = req.principal!;
    return p.kind === 'user' ? tools.mine(p.userId) : [];
  });

  app.get('/:tool_id', {
    schema: {
      operationId: 'tools.get', tags, summary: 'Company detail (public view)',
      description: 'subscription, owner_edited_fields and undo state are only shown on GET /api/tools/{tool_id}/edit-data.',
      params: ToolIdParams,
      response: { 200: Type.Ref('ToolDetailResponse'), 404: err, ...errorResponses },
    },
  }, async (req) => tools.detail(req.params.tool_id, { manage: false }));

  app.get('/:tool_id/edit-data', {
    onRequest: manager,
    schema: {
      operationId: 'tools.editData', tags, summary: 'Company detail for its edit page (owner or admin)', security: bearer,
      params: ToolIdParams,
      response: { 200: Type.Ref('ToolDetailResponse'), ...auth401, 404: err, ...errorResponses },
    },
  }, async (req) => tools.detail(req.params.tool_id, { manage: true }));

  app.put('/:tool_id', {
    onRequest: manager,
    schema: {
      operationId: 'tools.update', tags, summary: 'Edit a company (owner or admin)', security: bearer,
      description:
        'Send only the fields to change. Only the fields of ToolUpdate are accepted; any other field (is_verified, is_featured, website_url, ownership, subscription, ...) ' +
        'is refused with 422 naming each one, and nothing is applied. Values follow the directory rules (category from the 25, service type, lengths, URLs). ' +
        'The search index and embedding are updated before the response; the change is recorded in the edit history and the fields are kept on re-crawl.',
      params: ToolIdParams,
      body: Type.Ref('ToolUpdate'),
      response: { 200: Type.Ref('ToolDetailResponse'), ...auth401, 404: err, ...errorResponses },
    },
  }, async (req) => tools.update(req.params.tool_id, req.body, actorOf(req)));

  app.delete('/:tool_id', {
    onRequest: manager,
    schema: {
      operationId: 'tools.delete', tags, summary: 'Delete a company (owner or admin)', security: bearer,
      description: 'Removes the company from search and listings at once (soft delete). Proposals that reference it stay readable to their agents.',
      params: ToolIdParams,
      response: { 200: DeleteResponseSchema, ...auth401, 404: err, ...errorResponses },
    },
  }, async (req) => tools.remove(req.params.tool_id, actorOf(req)));

  app.get('/:tool_id/history', {
    onRequest: manager,
    schema: {
      operationId: 'tools.history', tags, summary: 'Edit history of a company (owner or admin)', security: bearer,
      params: ToolIdParams, querystring: EditHistoryQuery,
      response: { 200: EditHistorySchema, ...auth401, 404: err, ...errorResponses },
    },
  }, async (req) => tools.history(req.params.tool_id, req.query.limit ?? 20, req.query.offset ?? 0));

  app.post('/:tool_id/logo', {
    onRequest: manager,
    // The body schema is added to the OpenAPI document only; a route `body` schema would make Fastify
    // validate req.body, which the multipart plugin leaves empty (the file is streamed by the handler).
    config: { swaggerTransform: ({ schema, url }) => ({ schema: { ...schema, body: LogoUploadBodySchema }, url }) },
    schema: {
      operationId: 'tools.uploadLogo', tags, summary: 'Upload a logo (owner or admin)', security: bearer,
      consumes: ['multipart/form-data'],
      description:
        `multipart/form-data with one file part (name it "file"). PNG, JPEG, WebP or SVG, recognised by content (not by name): anything else is 415. ` +
        `At most ${LOGO_MAX_BYTES / 1024 / 1024} MB (413) and ${LOGO_MAX_INPUT_PX}×${LOGO_MAX_INPUT_PX} px (422). ` +
        `Stored as a PNG of at most ${LOGO_OUTPUT_PX} px (SVG is rasterised, never served as SVG) and served at GET /api/tools/{tool_id}/logo, which becomes logo_url.`,
      params: ToolIdParams,
      response: { 200: LogoResponseSchema, 400: err, ...auth401, 404: err, 413: err, 415: err, 503: err, ...errorResponses },
    },
  }, async (req) => {
    const { file } = await readSingleFileUpload(req, { what: 'logo', maxBytes: LOGO_MAX_BYTES });
    return tools.uploadLogo(req.params.tool_id, file, actorOf(req));
  });

  app.get('/:tool_id/logo', {
    schema: {
      operationId: 'tools.logo', tags, summary: 'The company logo (PNG)',
      description: 'Public, stable URL. Cached for 5 minutes, then revalidated with ETag (304).',
      params: ToolIdParams,
      response: { 200: Type.String({ format: 'binary', description: 'image/png' }), 304: Type.Null(), 404: err, ...errorResponses },
    },
  }, async (req, reply) => {
    const logo = await tools.getLogo(req.params.tool_id);
    const etag = `"${logo.etag}"`;
    reply
      .header('cache-control', 'public, max-age=300, must-revalidate')
      .header('etag', etag)
      .header('last-modified', new Date(logo.updated_at).toUTCString())
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'cross-origin');
    if (req.headers['if-none-match'] === etag) return reply.status(304).send(null);
    return reply.type(logo.content_type).send(logo.bytes);
  });

  app.post('/:tool_id/ai-edit', {
    onRequest: manager,
    schema: {
      operationId: 'tools.aiEdit', tags, summary: 'Edit a company in plain language (owner or admin)', security: bearer,
      description:
        'Two steps. 1) Preview: {"instruction": "we now also serve Austria; drop the old phone number"} returns `proposed` and a field-by-field `diff`; nothing changes. ' +
        '2) Apply: send {"instruction": ..., "apply": true, "changes": <proposed from step 1>} to apply exactly what was previewed; or {"instruction": ..., "apply": true} to interpret and apply in one call. ' +
        'Before applying, a snapshot of the profile is saved: POST .../ai-edit/undo restores it. ' +
        'With a language model configured (LLM_BASE_URL) the model proposes changes to editable fields only; without one a built-in interpreter understands: ' +
        'set/change/replace <field> to <value>, drop <field>, add/remove service|keyword|language <items>, we now also serve <place>, we no longer serve <place>, say we are <fact>. ' +
        'Everything passes the same validation as PUT; fields that may not change are listed in `rejected` and never applied. An instruction that cannot be understood is 422 with guidance.',
      params: ToolIdParams,
      body: AiEditRequestSchema,
      response: { 200: Type.Ref('AiEditResponse'), ...auth401, 404: err, 503: err, 504: err, ...errorResponses },
    },
  }, async (req) => tools.aiEdit(req.params.tool_id, req.body, actorOf(req)));

  app.post('/:tool_id/ai-edit/undo', {
    onRequest: manager,
    schema: {
      operationId: 'tools.aiEditUndo', tags, summary: 'Undo the last AI edit (owner or admin)', security: bearer,
      description: 'Restores exactly the editable fields saved just before the last applied AI edit (also over later manual edits). Only the last AI edit can be undone, once: otherwise 409.',
      params: ToolIdParams,
      response: { 200: UndoResponseSchema, ...auth401, 404: err, 409: err, ...errorResponses },
    },
  }, async (req) => tools.undoAiEdit(req.params.tool_id, actorOf(req)));
}
