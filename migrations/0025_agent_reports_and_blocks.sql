-- Owners report agents that send spam or abuse, and block them from their company (issue 38); the proposals
-- module writes both tables. Administrators see the reports next to each agent.
CREATE TABLE agent_reports (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  agent_id     uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  company_id   uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  proposal_id  uuid REFERENCES proposals(id) ON DELETE SET NULL,
  reported_by  uuid REFERENCES users(id) ON DELETE SET NULL,
  reason       text NOT NULL CHECK (reason IN ('spam', 'abuse', 'other')),
  note         text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now()
);
-- One report per proposal: reporting it again changes nothing.
CREATE UNIQUE INDEX agent_reports_proposal ON agent_reports (proposal_id) WHERE proposal_id IS NOT NULL;
CREATE INDEX agent_reports_agent ON agent_reports (agent_id, created_at DESC);

-- A company that blocked an agent receives no more proposals or replies from it.
CREATE TABLE agent_blocks (
  company_id  uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  agent_id    uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, agent_id)
);
