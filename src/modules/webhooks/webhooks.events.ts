import { createHash, randomBytes } from 'node:crypto';
import type { Db, Queryable } from '../../platform/db.js';
import { jobName, type Jobs } from '../../platform/jobs.js';
import { createWebhooksRepo } from './webhooks.repo.js';
import type { WebhookEventType } from './webhooks.schemas.js';

/** A JSON value of an event's data (proposal events carry the request's budget and details as objects). */
export type EventValue = string | number | boolean | null | { [key: string]: EventValue };

/**
 * The one thing other modules know of webhooks: record an event inside the transaction of the change
 * (so the change and its event commit together or not at all), then `dispatch` after the commit, which
 * puts the new deliveries in the job queue. A process that stops in between loses nothing: pending
 * deliveries without a queued job are queued again at start and by the minute sweep.
 */
export interface WebhookEventInput {
  type: WebhookEventType;
  agentId: string;
  /** Ids and small facts; `url` (where to GET the full object) is added from the type. */
  data: Record<string, EventValue>;
}

export interface WebhookEmitter {
  emit(q: Queryable, event: WebhookEventInput): Promise<void>;
  dispatch(): Promise<void>;
}

export const WEBHOOK_DELIVER_JOB = jobName<{ delivery_id: string; attempt: number }>('webhooks.deliver');
/** Payload format version (the `version` field of every event body). */
export const EVENT_VERSION = 1;

/** A unique event id: the webhook-id header, kept across retries and redeliveries. */
export const newEventId = () => `msg_${randomBytes(18).toString('base64url')}`;

/** The queue job of one attempt of one delivery has a fixed id, so queueing it twice is harmless. */
export function attemptJobId(deliveryId: string, attempt: number): string {
  const h = createHash('sha256').update(`${deliveryId}:${attempt}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Where the agent reads the whole object an event is about (with its API key). */
function resourceUrl(baseUrl: string, e: WebhookEventInput): string | null {
  const api = `${baseUrl}/api/v1/agent`;
  if (e.type.startsWith('proposal.') && typeof e.data.proposal_id === 'string') return `${api}/proposals/${e.data.proposal_id}`;
  if (e.type.startsWith('agent.')) return `${api}/me`;
  if (e.type.startsWith('company.') && typeof e.data.company_id === 'string') return `${api}/companies/${e.data.company_id}`;
  if (e.type === 'review.published' && typeof e.data.company_id === 'string') return `${api}/reviews?company_id=${e.data.company_id}`;
  if (e.type === 'webhook.test' && typeof e.data.endpoint_id === 'string') return `${api}/webhooks/${e.data.endpoint_id}`;
  return null;
}

/** The exact JSON body of an event (signed and sent as is). */
export function eventBody(baseUrl: string, id: string, e: WebhookEventInput, at = new Date()): string {
  return JSON.stringify({ id, type: e.type, version: EVENT_VERSION, timestamp: at.toISOString(), data: { ...e.data, url: resourceUrl(baseUrl, e) } });
}

export interface WebhookOutbox extends WebhookEmitter {
  /** Queues every pending delivery whose current attempt has no job yet (start, the minute sweep); returns how many. */
  queuePending(): Promise<number>;
}

export function createWebhookEmitter({ db, jobs, baseUrl }: { db: Db; jobs: Jobs; baseUrl: string }): WebhookOutbox {
  const repo = createWebhooksRepo(db);

  async function queuePending(): Promise<number> {
    let queued = 0;
    for (;;) {
      const rows = await repo.unqueued(100);
      for (const r of rows) {
        await jobs.send(WEBHOOK_DELIVER_JOB, { delivery_id: r.id, attempt: r.attempts }, { id: attemptJobId(r.id, r.attempts), startAfterSeconds: r.due_in_seconds });
        await repo.markQueued(r.id, r.attempts);
      }
      queued += rows.length;
      if (rows.length < 100 || queued >= 10_000) return queued;
    }
  }

  return {
    queuePending,
    async emit(q, event) {
      const id = newEventId();
      await createWebhooksRepo(q).recordEvent({ id, agentId: event.agentId, type: event.type, payload: eventBody(baseUrl, id, event) });
    },
    // One read of a partial index that holds only deliveries waiting for their job: cheap when there are none.
    async dispatch() {
      await queuePending();
    },
  };
}
