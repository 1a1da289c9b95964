-- Agents (spec 2.1): one agent per owner email, one live API key, stored only as its sha256.
CREATE TABLE agents (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text NOT NULL,
  owner_email     text NOT NULL,
  is_active       boolean NOT NULL DEFAULT true,
  -- hex sha256 of the whole key; rotation overwrites it, so the old key fails at once
  api_key_hash    text NOT NULL,
  key_created_at  timestamptz NOT NULL DEFAULT now(),
  deactivated_at  timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now()
);

-- Case-insensitive: Jane@X.com and jane@x.com are the same owner.
CREATE UNIQUE INDEX agents_owner_email ON agents (lower(owner_email));
CREATE UNIQUE INDEX agents_api_key_hash ON agents (api_key_hash);
CREATE INDEX agents_created ON agents (created_at DESC, id DESC);

-- Proposals (spec 2.4, 3.1). Status changes only through src/modules/proposals/proposal-status.ts.
CREATE TABLE proposals (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  agent_id        uuid NOT NULL REFERENCES agents(id),
  company_id      uuid NOT NULL REFERENCES companies(id),
  customer_email  text NOT NULL,
  customer_name   text NOT NULL,
  description     text NOT NULL,
  type            text NOT NULL DEFAULT 'custom' CHECK (type IN ('standard', 'custom')),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'responded')),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  -- soft delete by the company owner: hidden from the owner's listings unless include_deleted
  deleted_at      timestamptz
);

CREATE INDEX proposals_agent ON proposals (agent_id, created_at DESC, id DESC);
CREATE INDEX proposals_company ON proposals (company_id, created_at DESC, id DESC);

-- The conversation thread: the agent's original request, company responses, agent replies.
-- bigserial id gives a total order even when two messages share a timestamp.
CREATE TABLE proposal_messages (
  id           bigserial PRIMARY KEY,
  proposal_id  uuid NOT NULL REFERENCES proposals(id) ON DELETE CASCADE,
  author_role  text NOT NULL CHECK (author_role IN ('agent', 'company')),
  kind         text NOT NULL CHECK (kind IN ('request', 'reply', 'response')),
  -- for company responses: approve, reject or respond
  action       text CHECK (action IN ('approve', 'reject', 'respond')),
  text         text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX proposal_messages_thread ON proposal_messages (proposal_id, id);

-- Idempotency-Key on the two create calls: the first response is replayed for a retry.
CREATE TABLE proposal_idempotency (
  agent_id      uuid NOT NULL REFERENCES agents(id),
  key           text NOT NULL,
  -- sha256 of operation + canonical body: the same key with another body is refused
  request_hash  text NOT NULL,
  -- written in the same transaction as the proposals, so never seen empty by another request
  status_code   integer,
  response      jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, key)
);
