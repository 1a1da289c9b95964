import { createHash, randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../platform/db.js';
import { AppError, invalid, notFound } from '../../platform/errors.js';
import { jobName, type Jobs } from '../../platform/jobs.js';
import type { Mailer } from '../../platform/mail.js';
import { resolveSafe, systemResolver, UnsafeAddressError, type ResolvedAddress, type Resolver } from '../../lib/ssrf.js';
import { stableJson } from '../../lib/stable-json.js';
import { toPlainLine } from '../../lib/text.js';
import { isoTime, isoTimeOrNull } from '../../lib/time.js';
import { attemptDelivery, createSender, portRefusal, type AttemptDeps } from './webhooks.delivery.js';
import { eventBody, newEventId, WEBHOOK_DELIVER_JOB, type WebhookOutbox } from './webhooks.events.js';
import { createWebhooksRepo, type DeliveryRow, type EndpointRow } from './webhooks.repo.js';
import {
  MAX_ENDPOINTS_PER_AGENT,
  WEBHOOK_EVENT_TYPES,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookSecretEnvelope,
} from './webhooks.schemas.js';
import { createSecretBox, generateSecret } from './webhooks.signing.js';

export const WEBHOOK_SWEEP_JOB = jobName<object>('webhooks.sweep');

export interface WebhooksServiceDeps {
  db: Db;
  jobs: Jobs;
  config: Pick<Config, 'webhooks' | 'nodeEnv' | 'dataDir' | 'baseUrl' | 'serviceName'>;
  /** The emitter built first (services.ts): it records events; this service delivers them. */
  outbox: WebhookOutbox;
  mail: Mailer;
  /** The agent's owner address when it may receive mail (confirmed), for the endpoint-disabled notice. */
  ownerOf(agentId: string): Promise<{ email: string; name: string } | undefined>;
  log: AttemptDeps['log'];
  /** DNS for the endpoint checks and deliveries; tests may pass a fake. */
  resolver?: Resolver;
}

function toEndpoint(r: EndpointRow): WebhookEndpoint {
  const graceOver = !r.previous_secret_expires_at || new Date(r.previous_secret_expires_at).getTime() <= Date.now();
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    event_types: r.event_types as WebhookEndpoint['event_types'],
    enabled: r.enabled,
    disabled_reason: r.disabled_reason,
    disabled_at: isoTimeOrNull(r.disabled_at),
    secret_rotated_at: isoTimeOrNull(r.secret_rotated_at),
    previous_secret_expires_at: graceOver ? null : isoTimeOrNull(r.previous_secret_expires_at),
    failing_since: isoTimeOrNull(r.failing_since),
    created_at: isoTime(r.created_at),
    updated_at: isoTime(r.updated_at),
  };
}

/** How long an Idempotency-Key of a create is remembered (as for proposals). */
const IDEMPOTENCY_HOURS = 24;

function envelope(row: EndpointRow, secret: string): WebhookSecretEnvelope {
  return {
    endpoint: toEndpoint(row),
    secret,
    message: 'Endpoint registered. Store the secret now: it is shown only once. Verify each delivery with it (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature).',
  };
}

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { db, jobs, config, outbox, log } = deps;
  const settings = config.webhooks;
  const repo = createWebhooksRepo(db);
  const box = createSecretBox(config);
  const resolver = deps.resolver ?? systemResolver;
  const sender = createSender({ allowPrivate: settings.allowPrivate, allowedPorts: settings.allowedPorts, timeoutMs: settings.timeoutMs, resolver });
  const maxAttempts = settings.retryScheduleSeconds.length + 1;

  const attemptDeps: AttemptDeps = {
    repo, sender, box, log,
    userAgent: `${config.serviceName}-webhooks/1.0 (+${config.baseUrl}/${config.serviceName}.md)`,
    retrySchedule: settings.retryScheduleSeconds,
    disableAfterExhausted: settings.disableAfterExhausted,
    disableAfterFailingHours: settings.disableAfterFailingHours,
    async onDisabled(endpoint, reason, lastError) {
      const owner = await deps.ownerOf(endpoint.agent_id);
      if (!owner) return;
      await deps.mail.send({
        to: owner.email,
        subject: `Webhook endpoint disabled for the agent "${owner.name}"`,
        text: [
          `The webhook endpoint ${endpoint.url} of your agent "${owner.name}" was disabled: ` +
            (reason === 'gone' ? 'it answered 410 Gone.' : 'its deliveries kept failing.'),
          `Last error: ${lastError}`,
          '',
          'Events are not recorded for it until it is enabled again. Fix the receiver, then:',
          `PATCH ${config.baseUrl}/api/v1/agent/webhooks/${endpoint.id} {"enabled": true}`,
          `and redeliver what it missed: GET ${config.baseUrl}/api/v1/agent/webhooks/${endpoint.id}/deliveries?status=failed`,
          '',
          `-- ${config.serviceName}`,
        ].join('\n'),
      });
    },
  };

  // Retries are scheduled by the handler itself (a new job per attempt, on the webhook schedule); pg-boss
  // retries only a handler that threw (a database hiccup), and a job whose process died (heartbeat).
  jobs.define<{ delivery_id: string; attempt: number }>({
    name: WEBHOOK_DELIVER_JOB,
    retryLimit: 5,
    retryDelaySeconds: 10,
    expireInSeconds: 120,
    concurrency: 4,
    handler: async ({ delivery_id, attempt }) => {
      await attemptDelivery(attemptDeps, delivery_id, attempt);
      await outbox.queuePending();
    },
  });
  jobs.define<object>({ name: WEBHOOK_SWEEP_JOB, retryLimit: 1, handler: async () => void (await outbox.queuePending()) });
  jobs.schedule(WEBHOOK_SWEEP_JOB, '* * * * *');

  /** 422 unless the URL is absolute http(s) (https in production), without credentials, and not on a private address. */
  async function vetUrl(raw: string): Promise<string> {
    const loc = ['body', 'url'];
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw invalid(loc, 'url must be an absolute URL such as https://example.com/hooks', raw);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !settings.requireHttps)) {
      throw invalid(loc, settings.requireHttps ? 'url must use https' : 'url must use https (or http outside production)', raw);
    }
    if (url.username || url.password) throw invalid(loc, 'url must not contain credentials', raw);
    url.hash = '';
    let addresses: ResolvedAddress[] | undefined;
    try {
      addresses = await Promise.race([resolveSafe(url.hostname, resolver, settings.allowPrivate), new Promise<undefined>((resolve) => { setTimeout(() => resolve(undefined), 3000).unref(); })]);
    } catch (err) {
      if (err instanceof UnsafeAddressError) {
        throw invalid(loc, `url must be on a public address: ${err.message}. Private, loopback and link-local addresses are refused`, raw);
      }
      // A name that does not resolve yet is accepted: attempts fail and retry (each checked again when it connects).
    }
    const refused = portRefusal(url, settings.allowedPorts, settings.allowPrivate, addresses);
    if (refused) throw invalid(loc, `url ${refused}`, raw);
    return url.href;
  }

  function eventTypes(list: readonly string[] | undefined): string[] {
    return [...new Set(list ?? WEBHOOK_EVENT_TYPES)];
  }

  async function mustGet(agentId: string, id: string): Promise<EndpointRow> {
    const row = await repo.getEndpoint(agentId, id);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  function toDelivery(r: DeliveryRow): WebhookDelivery {
    return {
      id: r.id,
      endpoint_id: r.endpoint_id,
      event_id: r.event_id,
      event_type: r.event_type,
      status: r.status,
      attempts: r.attempts,
      max_attempts: maxAttempts,
      next_attempt_at: r.status === 'pending' ? isoTimeOrNull(r.next_attempt_at) : null,
      last_attempt_at: isoTimeOrNull(r.last_attempt_at),
      response_status: r.response_status,
      response_ms: r.response_ms,
      last_error: r.last_error,
      redelivery_of: r.redelivery_of,
      created_at: isoTime(r.created_at),
      updated_at: isoTime(r.updated_at),
    };
  }

  async function queued(endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    await outbox.dispatch();
    return toDelivery((await repo.getDelivery(endpointId, deliveryId))!);
  }

  function mustBeEnabled(row: EndpointRow): void {
    if (!row.enabled) throw new AppError('conflict', `This endpoint is disabled (${row.disabled_reason ?? 'agent'}): enable it first with PATCH {"enabled": true}`);
  }

  return {
    /** Queues pending deliveries left without a job (called at start; the sweep does it every minute). */
    queuePending: () => outbox.queuePending(),
    close: () => sender.close(),

    /**
     * Registers an endpoint. With an Idempotency-Key (as on the proposal creates: kept 24 hours, per agent) a retry
     * returns the endpoint the key created, with its current secret, and registers nothing; the same key with
     * another request is a 422.
     */
    async create(agentId: string, body: CreateWebhookBody, idempotencyKey?: string): Promise<{ body: WebhookSecretEnvelope; replayed: boolean }> {
      const idempotency = idempotencyKey ? { key: idempotencyKey, hash: createHash('sha256').update(`webhooks.create\n${stableJson(body)}`).digest('hex') } : undefined;
      const replay = (row: EndpointRow) => {
        if (row.idempotency_hash !== idempotency!.hash) {
          throw invalid(['header', 'idempotency-key'], 'This Idempotency-Key was already used with a different request; use a new key for a new request', idempotency!.key);
        }
        return { body: envelope(row, box.open(row.secret_enc, row.id)), replayed: true };
      };
      const seen = idempotency && (await repo.endpointByKey(agentId, idempotency.key, IDEMPOTENCY_HOURS));
      if (seen) return replay(seen);
      const url = await vetUrl(body.url);
      if ((await repo.countEndpoints(agentId)) >= MAX_ENDPOINTS_PER_AGENT) {
        throw new AppError('conflict', `An agent may register at most ${MAX_ENDPOINTS_PER_AGENT} webhook endpoints; delete one first`);
      }
      const id = randomUUID();
      const secret = generateSecret();
      const description = toPlainLine(body.description ?? '').slice(0, 200);
      const row = await repo.insertEndpoint({ id, agentId, url, description, eventTypes: eventTypes(body.event_types), secretEnc: box.seal(secret, id), ...(idempotency ? { idempotency } : {}) });
      // Undefined only when a concurrent request with the same key registered first.
      if (!row) return replay((await repo.endpointByKey(agentId, idempotency!.key, IDEMPOTENCY_HOURS))!);
      return { body: envelope(row, secret), replayed: false };
    },

    async list(agentId: string) {
      const rows = await repo.listEndpoints(agentId);
      return { endpoints: rows.map(toEndpoint), total: rows.length };
    },

    async get(agentId: string, id: string): Promise<WebhookEndpoint> {
      return toEndpoint(await mustGet(agentId, id));
    },

    async update(agentId: string, id: string, body: UpdateWebhookBody): Promise<WebhookEndpoint> {
      await mustGet(agentId, id);
      const url = body.url === undefined ? undefined : await vetUrl(body.url);
      const row = await repo.updateEndpoint(agentId, id, {
        ...(url ? { url } : {}),
        ...(body.description !== undefined ? { description: toPlainLine(body.description).slice(0, 200) } : {}),
        ...(body.event_types ? { eventTypes: eventTypes(body.event_types) } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
      });
      if (!row) throw notFound('Webhook endpoint');
      return toEndpoint(row);
    },

    async remove(agentId: string, id: string): Promise<void> {
      if (!(await repo.deleteEndpoint(agentId, id))) throw notFound('Webhook endpoint');
    },

    async rotateSecret(agentId: string, id: string): Promise<WebhookSecretEnvelope> {
      await mustGet(agentId, id);
      const secret = generateSecret();
      const row = await repo.rotateSecret(agentId, id, box.seal(secret, id), settings.rotationGraceHours);
      if (!row) throw notFound('Webhook endpoint');
      const grace = settings.rotationGraceHours;
      return {
        endpoint: toEndpoint(row),
        secret,
        message: grace > 0
          ? `New secret issued; store it now (shown only once). For ${grace} hours deliveries carry two signatures, one per secret, so receivers keep verifying while you deploy the new one.`
          : 'New secret issued; store it now (shown only once). The previous secret no longer signs.',
      };
    },

    async deliveries(agentId: string, id: string, q: { status?: WebhookDelivery['status'] | undefined; limit: number; offset: number }) {
      await mustGet(agentId, id);
      const { rows, total } = await repo.listDeliveries(id, q);
      return { deliveries: rows.map(toDelivery), total, limit: q.limit, offset: q.offset, has_more: q.offset + rows.length < total };
    },

    /** Sends a delivered or failed delivery's event again (same webhook-id) as a new delivery with a fresh schedule. */
    async redeliver(agentId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
      const endpoint = await mustGet(agentId, id);
      const of = await repo.getDelivery(id, deliveryId);
      if (!of) throw notFound('Delivery');
      mustBeEnabled(endpoint);
      if (of.status === 'pending') throw new AppError('conflict', 'This delivery is still pending: it is attempted on its schedule');
      return queued(id, await repo.redeliver(of));
    },

    /** A webhook.test event to this endpoint only (whatever its event types). */
    async sendTest(agentId: string, id: string): Promise<WebhookDelivery> {
      const endpoint = await mustGet(agentId, id);
      mustBeEnabled(endpoint);
      const eventId = newEventId();
      const payload = eventBody(config.baseUrl, eventId, { type: 'webhook.test', agentId, data: { endpoint_id: id } });
      const [deliveryId] = await repo.recordEvent({ id: eventId, agentId, type: 'webhook.test', payload, endpointId: id });
      return queued(id, deliveryId!);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
