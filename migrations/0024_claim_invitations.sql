-- Invitations to claim a listing (issue 37): a proposal to a verified company nobody has claimed is announced to the
-- company's public contact address, at most once per company per period; the proposals module writes both tables.
-- How each proposal reached the company: dashboard (an owner reads the inbox), email (the public address was invited
-- to claim the listing; the proposal waits in its inbox), none (nobody can read it yet).
ALTER TABLE proposals ADD COLUMN delivery text NOT NULL DEFAULT 'dashboard' CHECK (delivery IN ('dashboard', 'email', 'none'));

CREATE TABLE claim_invitations (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id              uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  -- the public contact address it went to, lower case
  email                   text NOT NULL,
  proposal_id             uuid REFERENCES proposals(id) ON DELETE SET NULL,
  -- sha256 of the unsubscribe token in the mail (the token itself is never stored)
  unsubscribe_token_hash  text NOT NULL UNIQUE,
  sent_at                 timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX claim_invitations_company ON claim_invitations (company_id, sent_at DESC);

-- Addresses that asked for no more invitations, lower case.
CREATE TABLE invitation_optouts (
  email       text PRIMARY KEY,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- A mail may carry a one-click unsubscribe address (RFC 8058): the List-Unsubscribe header.
ALTER TABLE mail_outbox ADD COLUMN list_unsubscribe text;
