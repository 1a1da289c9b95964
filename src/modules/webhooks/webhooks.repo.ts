import type { Queryable } from '../../platform/db.js';

export interface EndpointRow {
  id: string;
  agent_id: string;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: 'agent' | 'gone' | 'failing' | null;
  disabled_at: Date | string | null;
  secret_enc: string;
  idempotency_hash?: string | null;
  previous_secret_enc: string | null;
  previous_secret_expires_at: Date | string | null;
  secret_rotated_at: Date | string | null;
  failing_since: Date | string | null;
  exhausted_in_a_row: number;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  queued_attempt: number | null;
  next_attempt_at: Date | string | null;
  last_attempt_at: Date | string | null;
  response_status: number | null;
  response_ms: number | null;
  last_error: string | null;
  redelivery_of: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A delivery with what an attempt needs: its endpoint and the event's exact body. */
export interface AttemptRow {
  delivery: DeliveryRow;
  endpoint: EndpointRow;
  payload: string;
}

const DELIVERY = `SELECT d.id, d.endpoint_id, d.event_id, e.type AS event_type, d.status, d.attempts, d.queued_attempt, d.next_attempt_at,
  d.last_attempt_at, d.response_status, d.response_ms, d.last_error, d.redelivery_of, d.created_at, d.updated_at
  FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`;

/** SQL of the webhooks module; built on a Queryable (the Db or the transaction of the change that emits). */
export function createWebhooksRepo(db: Queryable) {
  return {
    /** Undefined when the agent already used the idempotency key (a concurrent retry won): the caller replays that one. */
    async insertEndpoint(e: {
      id: string; agentId: string; url: string; description: string; eventTypes: string[]; secretEnc: string; idempotency?: { key: string; hash: string };
    }): Promise<EndpointRow | undefined> {
      const rows = await db.query<EndpointRow>(
        `INSERT INTO webhook_endpoints (id, agent_id, url, description, event_types, secret_enc, idempotency_key, idempotency_hash)
         VALUES ($1, $2, $3, $4, $5::text[], $6, $7, $8) ON CONFLICT (agent_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING *`,
        [e.id, e.agentId, e.url, e.description, e.eventTypes, e.secretEnc, e.idempotency?.key ?? null, e.idempotency?.hash ?? null],
      );
      return rows[0];
    },

    /** The endpoint an Idempotency-Key created; a key older than `hours` is released first (it may be used again). */
    async endpointByKey(agentId: string, key: string, hours: number): Promise<EndpointRow | undefined> {
      await db.query(
        `UPDATE webhook_endpoints SET idempotency_key = NULL, idempotency_hash = NULL
         WHERE agent_id = $1 AND idempotency_key = $2 AND created_at < now() - make_interval(hours => $3)`,
        [agentId, key, hours],
      );
      return (await db.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE agent_id = $1 AND idempotency_key = $2', [agentId, key]))[0];
    },

    async countEndpoints(agentId: string): Promise<number> {
      return (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE agent_id = $1', [agentId]))[0]!.n;
    },

    async listEndpoints(agentId: string): Promise<EndpointRow[]> {
      return db.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE agent_id = $1 ORDER BY created_at, id', [agentId]);
    },

    /** An endpoint of this agent only: another agent's id is simply not found. */
    async getEndpoint(agentId: string, id: string): Promise<EndpointRow | undefined> {
      return (await db.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1 AND agent_id = $2', [id, agentId]))[0];
    },

    async updateEndpoint(agentId: string, id: string, p: { url?: string; description?: string; eventTypes?: string[]; enabled?: boolean }): Promise<EndpointRow | undefined> {
      const rows = await db.query<EndpointRow>(
        `UPDATE webhook_endpoints SET
           url = COALESCE($3, url),
           description = COALESCE($4, description),
           event_types = COALESCE($5::text[], event_types),
           enabled = COALESCE($6, enabled),
           disabled_reason = CASE WHEN $6 IS NULL THEN disabled_reason WHEN $6 THEN NULL ELSE 'agent' END,
           disabled_at = CASE WHEN $6 IS NULL THEN disabled_at WHEN $6 THEN NULL WHEN enabled THEN now() ELSE disabled_at END,
           failing_since = CASE WHEN $6 THEN NULL ELSE failing_since END,
           exhausted_in_a_row = CASE WHEN $6 THEN 0 ELSE exhausted_in_a_row END,
           updated_at = now()
         WHERE id = $1 AND agent_id = $2 RETURNING *`,
        [id, agentId, p.url ?? null, p.description ?? null, p.eventTypes ?? null, p.enabled ?? null],
      );
      return rows[0];
    },

    async deleteEndpoint(agentId: string, id: string): Promise<boolean> {
      return (await db.query<{ id: string }>('DELETE FROM webhook_endpoints WHERE id = $1 AND agent_id = $2 RETURNING id', [id, agentId])).length > 0;
    },

    /** The current secret becomes the previous one, valid for graceHours more. */
    async rotateSecret(agentId: string, id: string, secretEnc: string, graceHours: number): Promise<EndpointRow | undefined> {
      const rows = await db.query<EndpointRow>(
        `UPDATE webhook_endpoints SET previous_secret_enc = CASE WHEN $4::int > 0 THEN secret_enc END,
           previous_secret_expires_at = CASE WHEN $4::int > 0 THEN now() + make_interval(hours => $4::int) END,
           secret_enc = $3, secret_rotated_at = now(), updated_at = now()
         WHERE id = $1 AND agent_id = $2 RETURNING *`,
        [id, agentId, secretEnc, graceHours],
      );
      return rows[0];
    },

    /**
     * Records one event for the agent and one pending delivery per enabled endpoint subscribed to its type
     * (or only to `endpointId`, for a test event). Nothing is stored when no endpoint wants it.
     */
    async recordEvent(e: { id: string; agentId: string; type: string; payload: string; endpointId?: string }): Promise<string[]> {
      const targets = e.endpointId
        ? await db.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE id = $1 AND agent_id = $2', [e.endpointId, e.agentId])
        : await db.query<{ id: string }>('SELECT id FROM webhook_endpoints WHERE agent_id = $1 AND enabled AND $2 = ANY(event_types)', [e.agentId, e.type]);
      if (targets.length === 0) return [];
      await db.query('INSERT INTO webhook_events (id, agent_id, type, payload) VALUES ($1, $2, $3, $4)', [e.id, e.agentId, e.type, e.payload]);
      const rows = await db.query<{ id: string }>('INSERT INTO webhook_deliveries (endpoint_id, event_id) SELECT unnest($1::uuid[]), $2 RETURNING id', [targets.map((t) => t.id), e.id]);
      return rows.map((r) => r.id);
    },

    /** Pending deliveries whose current attempt has no job in the queue yet (oldest first). */
    async unqueued(limit: number): Promise<{ id: string; attempts: number; due_in_seconds: number }[]> {
      return db.query(
        `SELECT id, attempts, GREATEST(0, ceil(extract(epoch FROM (next_attempt_at - now()))))::int AS due_in_seconds
           FROM webhook_deliveries WHERE status = 'pending' AND queued_attempt IS DISTINCT FROM attempts
           ORDER BY next_attempt_at LIMIT $1`,
        [limit],
      );
    },

    async markQueued(id: string, attempt: number): Promise<void> {
      await db.query('UPDATE webhook_deliveries SET queued_attempt = $2 WHERE id = $1 AND attempts = $2', [id, attempt]);
    },

    async forAttempt(deliveryId: string): Promise<AttemptRow | undefined> {
      const [delivery] = await db.query<DeliveryRow>(`${DELIVERY} WHERE d.id = $1`, [deliveryId]);
      if (!delivery) return undefined;
      const [endpoint] = await db.query<EndpointRow>('SELECT * FROM webhook_endpoints WHERE id = $1', [delivery.endpoint_id]);
      const [event] = await db.query<{ payload: string }>('SELECT payload FROM webhook_events WHERE id = $1', [delivery.event_id]);
      return endpoint && event ? { delivery, endpoint, payload: event.payload } : undefined;
    },

    /**
     * Records attempt number `attempt` (0-based) of a pending delivery: only when no other attempt got there
     * first (returns false then). nextInSeconds null = no retry (status becomes `final`). A delivered attempt clears
     * its endpoint's failing state in the same statement: a reader never sees the delivery done and the endpoint failing.
     */
    async recordAttempt(a: {
      id: string; attempt: number; responseStatus: number | null; responseMs: number; error: string | null;
      final: 'delivered' | 'failed' | null; nextInSeconds: number | null;
    }): Promise<boolean> {
      const rows = await db.query<{ id: string }>(
        `WITH attempt AS (
           UPDATE webhook_deliveries SET attempts = attempts + 1, last_attempt_at = now(), response_status = $3, response_ms = $4,
             last_error = $5, status = COALESCE($6, 'pending'),
             next_attempt_at = CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END, updated_at = now()
           WHERE id = $1 AND attempts = $2 AND status = 'pending' RETURNING id, endpoint_id
         ), recovered AS (
           UPDATE webhook_endpoints SET failing_since = NULL, exhausted_in_a_row = 0
            WHERE $6::text = 'delivered' AND id IN (SELECT endpoint_id FROM attempt) AND (failing_since IS NOT NULL OR exhausted_in_a_row > 0)
         )
         SELECT id FROM attempt`,
        [a.id, a.attempt, a.responseStatus, a.responseMs, a.error, a.final, a.nextInSeconds],
      );
      return rows.length > 0;
    },

    /** A delivery that will never be attempted (its endpoint is disabled or gone). */
    async abandon(id: string, reason: string): Promise<void> {
      await db.query(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, last_error = $2, updated_at = now() WHERE id = $1 AND status = 'pending'`, [id, reason]);
    },

    /** Counts a failed attempt (and an exhausted delivery); answers whether every attempt has failed for failingHours. */
    async endpointFailed(endpointId: string, exhausted: boolean): Promise<{ exhausted_in_a_row: number; failing_hours: number } | undefined> {
      return (await db.query<{ exhausted_in_a_row: number; failing_hours: number }>(
        `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, now()), exhausted_in_a_row = exhausted_in_a_row + $2::int
         WHERE id = $1 RETURNING exhausted_in_a_row, extract(epoch FROM (now() - failing_since))::float8 / 3600 AS failing_hours`,
        [endpointId, exhausted ? 1 : 0],
      ))[0];
    },

    /** Disables an enabled endpoint; false when it already was (so the owner is told once). */
    async disable(endpointId: string, reason: 'gone' | 'failing'): Promise<boolean> {
      return (await db.query(
        `UPDATE webhook_endpoints SET enabled = false, disabled_reason = $2, disabled_at = now(), updated_at = now() WHERE id = $1 AND enabled RETURNING id`,
        [endpointId, reason],
      )).length > 0;
    },

    async listDeliveries(endpointId: string, q: { status?: string | undefined; limit: number; offset: number }): Promise<{ rows: DeliveryRow[]; total: number }> {
      const rows = await db.query<DeliveryRow>(
        `${DELIVERY} WHERE d.endpoint_id = $1 AND ($2::text IS NULL OR d.status = $2) ORDER BY d.created_at DESC, d.id DESC LIMIT $3 OFFSET $4`,
        [endpointId, q.status ?? null, q.limit, q.offset],
      );
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND ($2::text IS NULL OR status = $2)', [endpointId, q.status ?? null]);
      return { rows, total: count!.n };
    },

    async getDelivery(endpointId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
      return (await db.query<DeliveryRow>(`${DELIVERY} WHERE d.id = $1 AND d.endpoint_id = $2`, [deliveryId, endpointId]))[0];
    },

    /** A new pending delivery of the same event (same webhook-id) to the same endpoint. */
    async redeliver(of: DeliveryRow): Promise<string> {
      const rows = await db.query<{ id: string }>(
        'INSERT INTO webhook_deliveries (endpoint_id, event_id, redelivery_of) VALUES ($1, $2, $3) RETURNING id',
        [of.endpoint_id, of.event_id, of.id],
      );
      return rows[0]!.id;
    },

    /** Deliveries of an endpoint still pending (abandoned when it is disabled). */
    async pendingOf(endpointId: string): Promise<string[]> {
      return (await db.query<{ id: string }>(`SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'`, [endpointId])).map((r) => r.id);
    },
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
