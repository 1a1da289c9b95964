-- Held crawl fields (issue 40): a value a crawl read below its field's publish threshold (PUBLISH_THRESHOLD,
-- crawl.types.ts) is not written to the public profile; it waits here for an owner or an administrator to
-- use it (it is then written through the normal company edit) or dismiss it. One open value per company and
-- field: a newer crawl replaces what it held. Decided rows stay, so a dismissed value is not offered again.
-- The crawl module is the one writer.
CREATE TABLE crawl_held_fields (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id    uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  crawl_job_id  integer REFERENCES crawl_jobs (id) ON DELETE SET NULL,
  field         text NOT NULL CHECK (field IN ('name', 'phone', 'city', 'country', 'address')),
  value         text NOT NULL,
  confidence    real NOT NULL,
  source_url    text NOT NULL DEFAULT '',
  method        text NOT NULL DEFAULT '',
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'dismissed')),
  created_at    timestamptz NOT NULL DEFAULT now(),
  decided_at    timestamptz
);
CREATE UNIQUE INDEX crawl_held_fields_pending ON crawl_held_fields (company_id, field) WHERE status = 'pending';
CREATE INDEX crawl_held_fields_company ON crawl_held_fields (company_id, created_at DESC);
