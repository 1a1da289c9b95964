-- An agent's owner_email is confirmed by a link before anything but that link is mailed to it.
-- An unconfirmed registration stops blocking its address (and its key stops working) once the
-- link expires (24 h). Agents registered before this migration count as confirmed.
ALTER TABLE agents ADD COLUMN email_confirmed_at timestamptz;
ALTER TABLE agents ADD COLUMN email_confirm_hash text;
ALTER TABLE agents ADD COLUMN email_confirm_expires_at timestamptz;
UPDATE agents SET email_confirmed_at = created_at;
CREATE UNIQUE INDEX agents_email_confirm_hash ON agents (email_confirm_hash) WHERE email_confirm_hash IS NOT NULL;
