-- Reviews from real proposals only (issue 39). A review belongs to one proposal (one per proposal) and is
-- written by the customer named on it, through the link mailed once the company approved: the customer
-- rates it, or confirms what the agent submitted on their behalf (held until then). The reviews module is
-- the one writer of both tables. The link's token is stored as its sha256 only.
--   status: invited (link mailed, nothing written) | held (the agent's text, waiting for the customer)
--           | published | hidden (an administrator took it down after a report)
CREATE TABLE reviews (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  proposal_id   uuid NOT NULL UNIQUE REFERENCES proposals(id) ON DELETE CASCADE,
  company_id    uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  agent_id      uuid NOT NULL REFERENCES agents(id) ON DELETE CASCADE,
  customer_name text NOT NULL,
  status        text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'held', 'published', 'hidden')),
  rating        smallint CHECK (rating BETWEEN 1 AND 5),
  body          text NOT NULL DEFAULT '',
  submitted_by  text CHECK (submitted_by IN ('customer', 'agent')),
  token_hash    text NOT NULL UNIQUE,
  token_expires_at timestamptz NOT NULL,
  reply         text,
  replied_at    timestamptz,
  published_at  timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  CHECK (status IN ('invited') OR rating IS NOT NULL)
);
CREATE INDEX reviews_company_published ON reviews (company_id, published_at DESC) WHERE status = 'published';

-- Owners and agents report a review (one report per reporter and review); administrators resolve them.
CREATE TABLE review_reports (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  review_id   uuid NOT NULL REFERENCES reviews(id) ON DELETE CASCADE,
  reporter    text NOT NULL,
  reason      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  resolution  text CHECK (resolution IN ('hidden', 'kept')),
  UNIQUE (review_id, reporter)
);
CREATE INDEX review_reports_open ON review_reports (created_at) WHERE resolved_at IS NULL;
