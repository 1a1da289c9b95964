-- Crawl jobs: one row per crawl request (tracked), with its progress, outcome and a bounded
-- event timeline for administrators. The pg-boss job carries only the row id.
CREATE TABLE crawl_jobs (
  id            integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url           text NOT NULL,
  domain        text NOT NULL,
  -- who asked: an owner (users.id) or an administrator (admins.id); NULL for system crawls
  user_id       uuid,
  requested_by  text NOT NULL DEFAULT 'user' CHECK (requested_by IN ('user', 'admin', 'magic_link', 'system')),
  company_id    uuid REFERENCES companies (id) ON DELETE SET NULL,
  status        text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
  -- queued → robots → fetch → analyse → save → done (or failed)
  stage         text NOT NULL DEFAULT 'queued',
  pages_fetched integer NOT NULL DEFAULT 0,
  options       jsonb NOT NULL DEFAULT '{}'::jsonb,
  attempts      integer NOT NULL DEFAULT 0,
  error_kind    text,
  error         text,
  events        jsonb NOT NULL DEFAULT '[]'::jsonb,
  -- summary of a finished crawl: changed fields, kept owner edits, strategies tried
  result        jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  started_at    timestamptz,
  finished_at   timestamptz,
  duration_ms   integer
);
CREATE INDEX crawl_jobs_user ON crawl_jobs (user_id, id DESC);
CREATE INDEX crawl_jobs_created ON crawl_jobs (created_at DESC, id DESC);
CREATE INDEX crawl_jobs_status ON crawl_jobs (status, id DESC);
CREATE INDEX crawl_jobs_domain_active ON crawl_jobs (domain) WHERE status IN ('queued', 'running');
