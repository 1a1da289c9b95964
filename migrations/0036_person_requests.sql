-- People ask a company for a quote on its page or leave their details in its chat widget (issue 38).
-- Their requests travel as proposals from a built-in sender per channel, so the owner's inbox, the
-- notifications, the delivery to unclaimed listings and the status rules are the agents' ones.
-- A built-in sender holds no API key (its hash is no sha256) and is not listed with the agents.
ALTER TABLE agents ADD COLUMN kind text NOT NULL DEFAULT 'api' CHECK (kind IN ('api', 'quote_form', 'widget'));
CREATE UNIQUE INDEX agents_builtin_kind ON agents (kind) WHERE kind <> 'api';

-- Spam limits count a person's requests by address.
CREATE INDEX proposals_customer_recent ON proposals (lower(customer_email), created_at DESC);

-- The company's answer to a person is mailed with the company's address to reply to.
ALTER TABLE mail_outbox ADD COLUMN reply_to text;
