import { Type } from 'typebox';
import type { Config } from '../../config.js';
import { API_KEY_SECURITY, callingAgentId, type Guards } from '../../platform/auth.js';
import type { App } from '../../platform/http.js';
import { err, errorResponses, IdempotencyHeaders } from '../../platform/http.js';
import type { WebhooksService } from './webhooks.service.js';
import { CreateWebhookBody, DeliveryListQuery, DeliveryParams, EVENT_CATALOGUE, UpdateWebhookBody, WebhookIdParams } from './webhooks.schemas.js';

export interface WebhooksRoutesOptions {
  webhooks: WebhooksService;
  guards: Guards;
  /** The delivery settings, for the documentation (retry schedule, timeout, when an endpoint is disabled). */
  settings: Config['webhooks'];
}

const keyAuth = { security: API_KEY_SECURITY };

function human(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** Agent API: the calling agent's webhook endpoints and their deliveries (base /api/v1/agent). */
export async function webhooksRoutes(app: App, { webhooks, guards, settings }: WebhooksRoutesOptions): Promise<void> {
  const schedule = `immediately, then ${settings.retryScheduleSeconds.map(human).join(', ')} after the previous attempt`;
  const verification =
    'Each delivery is a POST of the JSON event {"id":"msg_…","type","version":1,"timestamp","data":{…ids, "url"}} with the Standard Webhooks headers ' +
    'webhook-id (the event id: the same on every retry and redelivery, de-duplicate on it), webhook-timestamp (Unix seconds of this attempt) and ' +
    'webhook-signature ("v1,<base64 HMAC-SHA256 of \'<webhook-id>.<webhook-timestamp>.<raw body>\'>" keyed with the base64-decoded part of the whsec_ secret; ' +
    'during a secret rotation two signatures separated by a space). Verify over the raw body with any Standard Webhooks library ' +
    '(JavaScript: new Webhook(secret).verify(rawBody, headers)) and reject timestamps more than 5 minutes old (replays). ' +
    `Answer 2xx quickly to acknowledge; 410 disables the endpoint; anything else (or no answer in ${human(Math.ceil(settings.timeoutMs / 1000))}, or a redirect) is retried: ${schedule}. ` +
    `An endpoint whose deliveries keep failing (every attempt for ${settings.disableAfterFailingHours} hours, or ${settings.disableAfterExhausted} deliveries in a row that exhausted their retries) is disabled and the owner email is told.`;

  app.post('/webhooks', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'webhooks.create',
      tags: ['agent'],
      summary: 'Register a webhook endpoint (events are POSTed to it, signed)',
      description:
        'Instead of polling proposals, receive events. The signing secret (whsec_…) is in this response only: store it. ' +
        'The url must be https (http only outside production) on a public address: private, loopback and link-local addresses are 422. At most 10 endpoints per agent (409). ' +
        'Send an Idempotency-Key header to retry safely: the same key and body return the endpoint that key registered, with its current secret (header Idempotent-Replayed: true), for 24 hours; the same key with another body is 422. ' +
        `${EVENT_CATALOGUE} ${verification}`,
      ...keyAuth,
      headers: IdempotencyHeaders,
      body: CreateWebhookBody,
      response: { 201: Type.Ref('WebhookSecretEnvelope'), 401: err, 409: err, 429: err, ...errorResponses },
    },
  }, async (req, reply) => {
    const out = await webhooks.create(callingAgentId(req), req.body, req.headers['idempotency-key']);
    if (out.replayed) reply.header('idempotent-replayed', 'true');
    return reply.status(201).send(out.body);
  });

  app.get('/webhooks', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'webhooks.list',
      tags: ['agent'],
      summary: "The calling agent's webhook endpoints (never their secrets)",
      ...keyAuth,
      response: { 200: Type.Ref('WebhookEndpointList'), 401: err, 429: err, ...errorResponses },
    },
  }, async (req) => webhooks.list(callingAgentId(req)));

  app.get('/webhooks/:webhook_id', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'webhooks.get',
      tags: ['agent'],
      summary: 'One webhook endpoint',
      description: "Another agent's endpoint is 404.",
      ...keyAuth,
      params: WebhookIdParams,
      response: { 200: Type.Ref('WebhookEndpoint'), 401: err, 404: err, 429: err, ...errorResponses },
    },
  }, async (req) => webhooks.get(callingAgentId(req), req.params.webhook_id));

  app.patch('/webhooks/:webhook_id', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'webhooks.update',
      tags: ['agent'],
      summary: 'Change the url, event types, description, or enable/disable an endpoint',
      description: 'Only the fields sent change. enabled true re-enables an endpoint disabled for any reason and clears its failure counters; deliveries it missed can be redelivered.',
      ...keyAuth,
      params: WebhookIdParams,
      body: UpdateWebhookBody,
      response: { 200: Type.Ref('WebhookEndpoint'), 401: err, 404: err, 429: err, ...errorResponses },
    },
  }, async (req) => webhooks.update(callingAgentId(req), req.params.webhook_id, req.body));

  app.delete('/webhooks/:webhook_id', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'webhooks.delete',
      tags: ['agent'],
      summary: 'Delete an endpoint and its delivery log',
      description: 'Pending deliveries to it are dropped.',
      ...keyAuth,
      params: WebhookIdParams,
      response: { 200: Type.Object({ deleted: Type.Boolean(), id: Type.String({ format: 'uuid' }) }), 401: err, 404: err, 429: err, ...errorResponses },
    },
  }, async (req) => {
    await webhooks.remove(callingAgentId(req), req.params.webhook_id);
    return { deleted: true, id: req.params.webhook_id };
  });

  app.post('/webhooks/:webhook_id/rotate-secret', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'webhooks.rotateSecret',
      tags: ['agent'],
      summary: `Issue a new signing secret (the previous one keeps signing for ${settings.rotationGraceHours} hours)`,
      description:
        'The new secret is in this response only. Until previous_secret_expires_at, every delivery carries two signatures (new secret first, then the previous one), ' +
        'so a receiver verifying with either secret keeps working while the new one is deployed.',
      ...keyAuth,
      params: WebhookIdParams,
      response: { 200: Type.Ref('WebhookSecretEnvelope'), 401: err, 404: err, 429: err, ...errorResponses },
    },
  }, async (req) => webhooks.rotateSecret(callingAgentId(req), req.params.webhook_id));

  app.get('/webhooks/:webhook_id/deliveries', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'webhooks.listDeliveries',
      tags: ['agent'],
      summary: "An endpoint's delivery log, newest first",
      description: `Each delivery: status, attempts made, the last attempt's response status, latency and error, and when the next attempt is due. Attempts: ${schedule}.`,
      ...keyAuth,
      params: WebhookIdParams,
      querystring: DeliveryListQuery,
      response: { 200: Type.Ref('WebhookDeliveryList'), 401: err, 404: err, 429: err, ...errorResponses },
    },
  }, async (req) => webhooks.deliveries(callingAgentId(req), req.params.webhook_id, { status: req.query.status, limit: req.query.limit ?? 50, offset: req.query.offset ?? 0 }));

  app.post('/webhooks/:webhook_id/deliveries/:delivery_id/redeliver', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'webhooks.redeliver',
      tags: ['agent'],
      summary: 'Send a delivered or failed event again',
      description: 'Queues a new delivery of the same event (same webhook-id, signed afresh) with a fresh retry schedule. A still pending delivery or a disabled endpoint is 409.',
      ...keyAuth,
      params: DeliveryParams,
      response: { 202: Type.Ref('WebhookDelivery'), 401: err, 404: err, 409: err, 429: err, ...errorResponses },
    },
  }, async (req, reply) => reply.status(202).send(await webhooks.redeliver(callingAgentId(req), req.params.webhook_id, req.params.delivery_id)));

  app.post('/webhooks/:webhook_id/test', {
    onRequest: guards.requireAgent,
    schema: {
      operationId: 'webhooks.sendTest',
      tags: ['agent'],
      summary: 'Send a webhook.test event to this endpoint',
      description: 'Queues a signed webhook.test event (data: endpoint_id, url) to this endpoint whatever its event types; follow it in the delivery log. A disabled endpoint is 409.',
      ...keyAuth,
      params: WebhookIdParams,
      response: { 202: Type.Ref('WebhookDelivery'), 401: err, 404: err, 409: err, 429: err, ...errorResponses },
    },
  }, async (req, reply) => reply.status(202).send(await webhooks.sendTest(callingAgentId(req), req.params.webhook_id)));
}
