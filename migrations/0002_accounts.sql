-- Accounts: owners (users), administrators, bearer sessions, magic-link tokens, outgoing mail,
-- and which user owns which company.

CREATE TABLE users (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email         text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz,
  -- account removal: the row stays for history, the address is free to sign up again
  deleted_at    timestamptz
);
CREATE UNIQUE INDEX users_email_live ON users (lower(email)) WHERE deleted_at IS NULL;

CREATE TABLE admins (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email         text NOT NULL,
  -- scrypt$N$r$p$salt$hash; NULL = magic-link sign-in only
  password_hash text,
  is_active     boolean NOT NULL DEFAULT true,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_login_at timestamptz
);
CREATE UNIQUE INDEX admins_email ON admins (lower(email));

-- One row per issued bearer token family (the JWT's jti). Revoked on sign-out or account removal.
CREATE TABLE auth_sessions (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  subject_kind text NOT NULL CHECK (subject_kind IN ('user', 'admin')),
  subject_id   uuid NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL,
  revoked_at   timestamptz
);
CREATE INDEX auth_sessions_subject ON auth_sessions (subject_kind, subject_id);

-- Only the sha256 of a magic token is stored; the token itself exists only in the email.
CREATE TABLE magic_tokens (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash  text NOT NULL UNIQUE,
  kind        text NOT NULL CHECK (kind IN ('user', 'admin')),
  email       text NOT NULL,
  purpose     text NOT NULL CHECK (purpose IN ('login', 'verify', 'crawl', 'admin')),
  website_url text,
  domain      text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  used_at     timestamptz
);
CREATE INDEX magic_tokens_expires ON magic_tokens (expires_at);

-- Durable outbox: a message is stored before anything is sent; the mail.send job delivers it.
CREATE TABLE mail_outbox (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  to_address text NOT NULL,
  subject    text NOT NULL,
  text_body  text NOT NULL,
  html_body  text,
  -- queued → sent (SMTP accepted it) | logged (no SMTP configured) | failed (retries exhausted)
  status     text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'logged', 'failed')),
  attempts   integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at    timestamptz
);
CREATE INDEX mail_outbox_created ON mail_outbox (created_at DESC);
CREATE INDEX mail_outbox_queued ON mail_outbox (created_at) WHERE status = 'queued';

CREATE TABLE company_owners (
  user_id    uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, company_id)
);
CREATE INDEX company_owners_company ON company_owners (company_id);
