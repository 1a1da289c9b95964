-- Outbound events (issue 18): agents register endpoints, events are recorded in the transaction of the change
-- that caused them, and each (endpoint, event) pair is a delivery that a pg-boss job attempts with backoff.

-- An agent's endpoint. The signing secret is stored encrypted (AES-256-GCM, the row id as associated data) because
-- it must be usable for signing; during a rotation the previous one signs too until previous_secret_expires_at.
CREATE TABLE webhook_endpoints (
  id                          uuid PRIMARY KEY,
  agent_id                    uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  url                         text NOT NULL,
  description                 text NOT NULL DEFAULT '',
  event_types                 text[] NOT NULL,
  enabled                     boolean NOT NULL DEFAULT true,
  -- why it was disabled: 'agent' (by the agent), 'gone' (the endpoint answered 410), 'failing' (sustained failure)
  disabled_reason             text CHECK (disabled_reason IN ('agent', 'gone', 'failing')),
  disabled_at                 timestamptz,
  secret_enc                  text NOT NULL,
  previous_secret_enc         text,
  previous_secret_expires_at  timestamptz,
  secret_rotated_at           timestamptz,
  -- since when every attempt failed (NULL after a success), and deliveries in a row that exhausted every retry
  failing_since               timestamptz,
  exhausted_in_a_row          integer NOT NULL DEFAULT 0,
  created_at                  timestamptz NOT NULL DEFAULT now(),
  updated_at                  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_agent ON webhook_endpoints (agent_id, created_at, id);

-- One event for one agent: the exact JSON body that is signed and sent (its id is the webhook-id header).
CREATE TABLE webhook_events (
  id          text PRIMARY KEY,
  agent_id    uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  type        text NOT NULL,
  payload     text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_agent ON webhook_events (agent_id, created_at DESC);

-- One event to one endpoint. attempts counts attempts made; queued_attempt is the attempt whose job was sent to the
-- queue (a row whose queued_attempt differs from attempts while pending is queued again by the next dispatch, at
-- start or by the minute sweep: nothing recorded is lost when a process stops between the commit and the queue).
CREATE TABLE webhook_deliveries (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  endpoint_id      uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id         text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  status           text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         integer NOT NULL DEFAULT 0,
  queued_attempt   integer,
  next_attempt_at  timestamptz DEFAULT now(),
  last_attempt_at  timestamptz,
  response_status  integer,
  response_ms      integer,
  last_error       text,
  -- the delivery this one re-sends (redeliver), if any
  redelivery_of    uuid REFERENCES webhook_deliveries (id) ON DELETE SET NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
-- Only rows waiting for their job: dispatch after every emitting change reads this, and it stays small.
CREATE INDEX webhook_deliveries_unqueued ON webhook_deliveries (next_attempt_at) WHERE status = 'pending' AND queued_attempt IS DISTINCT FROM attempts;
