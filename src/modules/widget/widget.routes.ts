import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { BEARER_SECURITY, type Guards } from '../../platform/auth.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses } from '../../platform/http.js';
import { PublicIdParams, SiteOriginQuery, ToolIdParams, WidgetChatRequestSchema, WidgetConfigUpdateSchema, WidgetLeadRequestSchema } from './widget.schemas.js';
import type { WidgetService } from './widget.service.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The embeddable script, next to this file (the build copies it beside the compiled module). */
export function loadWidgetScript(): string {
  return fs.readFileSync(path.join(here, 'widget.client.js'), 'utf8');
}

/** The calling site: a browser's Origin header wins; site_origin serves callers that send none. */
function siteOrigin(req: FastifyRequest, fallback: string | undefined): string | undefined {
  const header = req.headers.origin;
  return typeof header === 'string' && header && header !== 'null' ? header : fallback;
}

function allowCors(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin);
  reply.header('vary', 'Origin');
}

const publicTags = ['widget'];
const publicErrors = { 403: err, 404: err, 429: err, ...errorResponses };

/** Owner configuration (base /api/widget). */
export async function widgetRoutes(app: App, { widget, guards }: { widget: WidgetService; guards: Guards }): Promise<void> {
  const manager = guards.requireCompanyManager('tool_id');
  const security = BEARER_SECURITY;

  app.get('/company/:tool_id', {
    onRequest: manager,
    schema: {
      operationId: 'widget.get',
      tags: ['widget'],
      security,
      summary: 'Chat widget configuration of a company',
      description: 'Created (disabled) on first read, with its public id and embed code. Owner of the company or administrator.',
      params: ToolIdParams,
      response: { 200: Type.Ref('WidgetConfig'), 401: err, 404: err, ...errorResponses },
    },
  }, async (req) => widget.getForOwner(req.params.tool_id));

  app.post('/company/:tool_id', {
    onRequest: manager,
    schema: {
      operationId: 'widget.save',
      tags: ['widget'],
      security,
      summary: 'Save the chat widget configuration',
      description:
        'Only the given fields change: enabled, title, greeting, primary_color, text_color, position (bottom-right, bottom-left), ' +
        'allowed_origins (sites allowed to embed it; empty = the company website), sources (profile, pages), show_branding (false hides the "Powered by" line: ' +
        'pro plan, 402 on free; nothing is saved then), regenerate_public_id. Other fields are ignored.',
      params: ToolIdParams,
      body: WidgetConfigUpdateSchema,
      response: { 200: Type.Ref('WidgetConfig'), 401: err, 402: err, 404: err, ...errorResponses },
    },
  }, async (req) => widget.update(req.params.tool_id, req.body));
}

/** Public endpoints the embedded script calls (base /api/widget/public): origin-checked, rate-limited per origin and IP. */
export async function widgetPublicRoutes(app: App, { widget }: { widget: WidgetService }): Promise<void> {
  app.get('/:widget_public_id/config', {
    schema: {
      operationId: 'widget.publicConfig',
      tags: publicTags,
      summary: 'Public widget configuration (for the embedded script)',
      description: 'Refused (403) unless the calling site (Origin header, or site_origin) is allowed by the owner; 404 when unknown or disabled.',
      params: PublicIdParams,
      querystring: SiteOriginQuery,
      response: { 200: Type.Ref('WidgetPublicConfig'), ...publicErrors },
    },
  }, async (req, reply) => {
    const r = await widget.publicConfig(req.params.widget_public_id, siteOrigin(req, req.query.site_origin), req.ip);
    allowCors(reply, r.allowedOrigin);
    return r.body;
  });

  app.get('/:widget_public_id/sources', {
    schema: {
      operationId: 'widget.publicSources',
      tags: publicTags,
      summary: 'What the widget answers from (profile, crawled pages)',
      params: PublicIdParams,
      querystring: SiteOriginQuery,
      response: { 200: Type.Ref('WidgetSources'), ...publicErrors },
    },
  }, async (req, reply) => {
    const r = await widget.publicSources(req.params.widget_public_id, siteOrigin(req, req.query.site_origin), req.ip);
    allowCors(reply, r.allowedOrigin);
    return r.body;
  });

  app.post('/:widget_public_id/chat', {
    schema: {
      operationId: 'widget.chat',
      tags: publicTags,
      summary: 'Ask the company chat widget',
      description:
        'messages: the conversation, oldest first (the last user message is the question). The answer is grounded in the company profile (and crawled pages when stored); ' +
        'answered is false when they do not answer the question, and such questions are recorded (question text only) for the owner\'s audience insights.',
      params: PublicIdParams,
      body: WidgetChatRequestSchema,
      response: { 200: Type.Ref('WidgetChatResponse'), ...publicErrors },
    },
  }, async (req, reply) => {
    const r = await widget.chat(req.params.widget_public_id, siteOrigin(req, req.body.site_origin), req.ip, req.body);
    allowCors(reply, r.allowedOrigin);
    return r.body;
  });

  app.post('/:widget_public_id/lead', {
    schema: {
      operationId: 'widget.lead',
      tags: publicTags,
      summary: 'A visitor leaves contact details and a request in the widget',
      description:
        "The widget's \"Leave your details\" form. The request lands in the owner's inbox as a proposal (origin widget) and the owner's answer is emailed " +
        'to the visitor. The limits of the company page\'s quote requests apply (a few per network address an hour and per email address a day, ' +
        'one open request per company and address) besides the chat limit.',
      params: PublicIdParams,
      body: WidgetLeadRequestSchema,
      response: { 201: Type.Object({ message: Type.String() }), ...publicErrors },
    },
  }, async (req, reply) => {
    const r = await widget.lead(req.params.widget_public_id, siteOrigin(req, req.body.site_origin), req.ip, req.body);
    allowCors(reply, r.allowedOrigin);
    return reply.code(201).send(r.body);
  });

  // CORS preflights for the JSON POSTs (chat, lead) from the embedding site.
  for (const verb of ['chat', 'lead'] as const) {
    app.options(`/:widget_public_id/${verb}`, { schema: { hide: true, params: PublicIdParams } }, async (req, reply) => {
      const origin = await widget.preflight(req.params.widget_public_id, siteOrigin(req, undefined));
      allowCors(reply, origin);
      reply.header('access-control-allow-methods', 'POST, OPTIONS');
      reply.header('access-control-allow-headers', 'content-type');
      reply.header('access-control-max-age', '600');
      return reply.code(204).send();
    });
  }
}

/** GET /widget.js: the embeddable script, cached by browsers for an hour (revalidated by ETag). */
export async function widgetScriptRoutes(app: App): Promise<void> {
  const script = loadWidgetScript();
  const etag = `"${createHash('sha256').update(script).digest('base64url').slice(0, 20)}"`;
  app.get('/widget.js', {
    schema: {
      operationId: 'widget.script',
      tags: ['widget'],
      summary: 'Embeddable chat widget script',
      description: 'Embed it in a page with a script element: `src` is {BASE_URL}/widget.js, `data-widget-id` the widget_public_id, and `async` set (the widget settings show the exact snippet).',
      response: {
        200: { description: 'The widget script', content: { 'application/javascript': { schema: Type.String() } } },
        304: { description: 'Not modified (ETag)', type: 'null' },
      },
    },
  }, async (req, reply) => {
    reply.header('cache-control', 'public, max-age=3600');
    reply.header('etag', etag);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    if (req.headers['if-none-match'] === etag) return reply.code(304).send(null);
    reply.type('application/javascript; charset=utf-8');
    return script;
  });
}
