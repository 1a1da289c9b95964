import { Type, type Static } from 'typebox';
import { offsetParam } from '../../platform/http.js';

/** Event types an endpoint may subscribe to (webhook.test is sent only by the send-test operation). */
export const WEBHOOK_EVENT_TYPES = [
  'proposal.responded',
  'proposal.approved',
  'proposal.rejected',
  'proposal.message',
  'proposal.restored',
  'proposal.deleted',
  'agent.deactivated',
  'agent.reactivated',
  'company.unverified',
  'review.published',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | 'webhook.test';

/** At most this many endpoints per agent. */
export const MAX_ENDPOINTS_PER_AGENT = 10;

export const EVENT_CATALOGUE =
  'Events: proposal.responded, proposal.approved, proposal.rejected (the company answered; data: proposal_id, company_id, status), ' +
  'proposal.message (a message from the company joined the thread; data: proposal_id, company_id, message_id), ' +
  'proposal.deleted and proposal.restored (the company soft-deleted or restored it); every proposal event\'s data also carries the request\'s budget, needed_by, location and details (null when the request had none), ' +
  'agent.deactivated and agent.reactivated (data: agent_id), ' +
  'company.unverified (a company you proposed to is no longer verified; data: company_id), ' +
  'review.published (the customer of one of your proposals published a review; data: review_id, proposal_id, company_id, rating). Every data object carries url: where to GET the full object with your API key.';

const EventTypeSchema = Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)), { description: 'An event type' });

export const WebhookEndpointSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String({ description: 'Where events are POSTed' }),
    description: Type.String(),
    event_types: Type.Array(EventTypeSchema, { description: 'The event types sent to this endpoint' }),
    enabled: Type.Boolean({ description: 'Disabled endpoints receive nothing (new events are not recorded for them)' }),
    disabled_reason: Type.Union([Type.Literal('agent'), Type.Literal('gone'), Type.Literal('failing'), Type.Null()], {
      description: 'agent: you disabled it; gone: it answered 410; failing: every delivery failed for a day or several in a row exhausted their retries (the owner email is told)',
    }),
    disabled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    secret_rotated_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    previous_secret_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Until then deliveries also carry a signature made with the previous secret',
    }),
    failing_since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Since when every attempt failed (null after a success)' }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WebhookEndpoint' },
);
export type WebhookEndpoint = Static<typeof WebhookEndpointSchema>;

export const WebhookSecretEnvelopeSchema = Type.Object(
  {
    endpoint: Type.Ref('WebhookEndpoint'),
    secret: Type.String({ description: 'whsec_… signing secret: shown only here, store it now' }),
    message: Type.String(),
  },
  { $id: 'WebhookSecretEnvelope' },
);
export type WebhookSecretEnvelope = { endpoint: WebhookEndpoint; secret: string; message: string };

export const WebhookEndpointListSchema = Type.Object(
  { endpoints: Type.Array(Type.Ref('WebhookEndpoint')), total: Type.Integer() },
  { $id: 'WebhookEndpointList' },
);

const DeliveryStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')], {
  description: 'pending (an attempt is due or retries remain), delivered (a 2xx answer), failed (410, retries exhausted, or the endpoint was disabled)',
});

export const WebhookDeliverySchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    endpoint_id: Type.String({ format: 'uuid' }),
    event_id: Type.String({ description: 'msg_…: the webhook-id header, the same on every attempt and redelivery (de-duplicate on it)' }),
    event_type: Type.String(),
    status: DeliveryStatusSchema,
    attempts: Type.Integer({ description: 'Attempts made so far' }),
    max_attempts: Type.Integer(),
    next_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    last_attempt_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    response_status: Type.Union([Type.Integer(), Type.Null()], { description: 'HTTP status of the last attempt (null: no answer)' }),
    response_ms: Type.Union([Type.Integer(), Type.Null()], { description: 'Latency of the last attempt' }),
    last_error: Type.Union([Type.String(), Type.Null()]),
    redelivery_of: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = Type.Object(
  {
    deliveries: Type.Array(Type.Ref('WebhookDelivery')),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
  },
  { $id: 'WebhookDeliveryList' },
);

const urlField = Type.String({
  minLength: 8,
  maxLength: 2048,
  description: 'https URL (http only outside production) on a public address; redirects are not followed',
});
const eventTypesField = Type.Array(EventTypeSchema, { minItems: 1, maxItems: WEBHOOK_EVENT_TYPES.length, uniqueItems: true });
const descriptionField = Type.String({ maxLength: 200, description: 'A note for yourself' });

export const CreateWebhookBody = Type.Object(
  {
    url: urlField,
    event_types: Type.Optional({ ...eventTypesField, description: 'Event types to receive; default: all' }),
    description: Type.Optional(descriptionField),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(urlField),
    event_types: Type.Optional(eventTypesField),
    description: Type.Optional(descriptionField),
    enabled: Type.Optional(Type.Boolean({ description: 'false disables; true re-enables (also after gone/failing) and clears the failure counters' })),
  },
  { additionalProperties: false },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const WebhookIdParams = Type.Object({ webhook_id: Type.String({ format: 'uuid' }) });
export const DeliveryParams = Type.Object({ webhook_id: Type.String({ format: 'uuid' }), delivery_id: Type.String({ format: 'uuid' }) });

export const DeliveryListQuery = Type.Object({
  status: Type.Optional(DeliveryStatusSchema),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  offset: offsetParam(),
});

/** $id'd schemas registered once in app.ts. */
export const webhooksSchemas = [WebhookEndpointSchema, WebhookSecretEnvelopeSchema, WebhookEndpointListSchema, WebhookDeliverySchema, WebhookDeliveryListSchema];
