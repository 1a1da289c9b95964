-- Company management: owner edits and their history, AI-edit snapshots (undo), logos,
-- subscriptions set by hand, the administrators' audit log and search reindex runs.

-- Fields a person (owner or administrator) has set by hand. A re-crawl keeps these values.
ALTER TABLE companies ADD COLUMN owner_edited_fields text[] NOT NULL DEFAULT '{}';

-- Who changed what: one row per accepted edit, changes = {"field": {"before": .., "after": ..}}.
CREATE TABLE company_edits (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  actor_kind  text NOT NULL CHECK (actor_kind IN ('user', 'admin', 'system')),
  actor_id    uuid,
  actor_email text,
  -- edit (PUT), ai_edit, undo, logo, delete, admin
  source      text NOT NULL,
  changes     jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX company_edits_company ON company_edits (company_id, id DESC);

-- The editable profile as it was just before an AI edit was applied. Only the newest one can be
-- undone, once (undone_at set): a second undo has nothing to restore.
CREATE TABLE company_ai_snapshots (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  company_id  uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  instruction text NOT NULL,
  snapshot    jsonb NOT NULL,
  applied     jsonb NOT NULL,
  actor_kind  text NOT NULL,
  actor_id    uuid,
  created_at  timestamptz NOT NULL DEFAULT now(),
  undone_at   timestamptz
);
CREATE INDEX company_ai_snapshots_company ON company_ai_snapshots (company_id, id DESC);

-- The normalised raster logo (never the uploaded file itself), served at /api/tools/{id}/logo.
CREATE TABLE company_logos (
  company_id   uuid PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  content_type text NOT NULL,
  bytes        bytea NOT NULL,
  width        integer NOT NULL,
  height       integer NOT NULL,
  etag         text NOT NULL,
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- A company's plan. Administrators set it by hand; a payment integration may write it later.
CREATE TABLE company_subscriptions (
  company_id   uuid PRIMARY KEY REFERENCES companies (id) ON DELETE CASCADE,
  plan         text NOT NULL,
  status       text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'trialing', 'past_due', 'canceled')),
  period_start timestamptz,
  period_end   timestamptz,
  source       text NOT NULL DEFAULT 'admin',
  note         text NOT NULL DEFAULT '',
  updated_at   timestamptz NOT NULL DEFAULT now()
);

-- Every administrator action: who, what, on which target, when, before/after.
CREATE TABLE admin_audit_log (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  admin_id    uuid,
  admin_email text NOT NULL,
  action      text NOT NULL,
  target_type text NOT NULL,
  target_id   text,
  before      jsonb,
  after       jsonb,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX admin_audit_log_created ON admin_audit_log (created_at DESC, id DESC);
CREATE INDEX admin_audit_log_target ON admin_audit_log (target_type, target_id, id DESC);

-- Search reindex runs with progress. The partial unique index admits one active run at a time.
CREATE TABLE reindex_runs (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  status       text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  total        integer NOT NULL DEFAULT 0,
  done         integer NOT NULL DEFAULT 0,
  error        text,
  started_by   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  started_at   timestamptz,
  finished_at  timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX reindex_runs_one_active ON reindex_runs ((true)) WHERE status IN ('queued', 'running');

CREATE INDEX companies_featured ON companies (name, id) WHERE is_featured AND deleted_at IS NULL;
