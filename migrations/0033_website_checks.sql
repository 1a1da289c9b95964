-- Monthly website checks (issue 39): an owner opts in, the crawl reads the site again each month, and
-- what it found that differs from the profile waits for the owner's approval instead of being written.
-- The crawl module is the one writer of both tables.

-- Companies whose owners asked for the monthly check, and when it runs next.
CREATE TABLE website_checks (
  company_id   uuid PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  -- the user who turned it on (users.id); kept for the record, not a foreign key (users may go)
  enabled_by   uuid,
  enabled_at   timestamptz NOT NULL DEFAULT now(),
  next_run_at  timestamptz NOT NULL,
  last_run_at  timestamptz
);
CREATE INDEX website_checks_due ON website_checks (next_run_at);

-- What a crawl proposes: field values that differ from the profile ({field: {current, proposed}}) and
-- pictures from the site for the gallery ([{url, caption}]). One pending suggestion per company: a newer
-- crawl replaces it. Resolved ones keep what the owner accepted, so a dismissed picture is not offered again.
CREATE TABLE website_suggestions (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id    uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  crawl_job_id  integer REFERENCES crawl_jobs (id) ON DELETE SET NULL,
  changes       jsonb NOT NULL DEFAULT '{}'::jsonb,
  photos        jsonb NOT NULL DEFAULT '[]'::jsonb,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'resolved')),
  accepted      jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  resolved_at   timestamptz
);
CREATE UNIQUE INDEX website_suggestions_pending ON website_suggestions (company_id) WHERE status = 'pending';
CREATE INDEX website_suggestions_company ON website_suggestions (company_id, created_at DESC);
