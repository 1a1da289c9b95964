-- Scans (spec 4.7): how ready a company's website is for AI agents, and the agent files bundles.

-- One scan of one company's site. Findings and scores are stored as computed and never re-graded:
-- rubric_version says which rubric graded them.
CREATE TABLE scans (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id      uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  url             text NOT NULL,
  state           text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'completed', 'failed')),
  trigger         text NOT NULL DEFAULT 'manual' CHECK (trigger IN ('manual', 'scheduled')),
  requested_by    uuid,
  rubric_version  text NOT NULL,
  score           integer,
  grade           text,
  group_scores    jsonb,
  counts          jsonb,
  coverage        real,
  caps            jsonb,
  results         jsonb,
  requests_made   integer NOT NULL DEFAULT 0,
  failure_reason  text,
  error           text,
  previous_scan_id uuid REFERENCES scans (id) ON DELETE SET NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  started_at      timestamptz,
  finished_at     timestamptz
);
CREATE INDEX scans_company_created ON scans (company_id, created_at DESC);
-- At most one queued or running scan per company: a second start races into this index.
CREATE UNIQUE INDEX scans_one_active ON scans (company_id) WHERE state IN ('queued', 'running');

-- A generated agent files bundle (files inline, as generated) and its single-use download token (sha256 only).
CREATE TABLE scan_bundles (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id      uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  scan_id         uuid REFERENCES scans (id) ON DELETE SET NULL,
  files           jsonb NOT NULL,
  filename        text NOT NULL,
  token_hash      text NOT NULL UNIQUE,
  token_expires_at timestamptz NOT NULL,
  token_used_at   timestamptz,
  created_by      uuid,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX scan_bundles_company ON scan_bundles (company_id, created_at DESC);
