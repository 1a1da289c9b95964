-- An address is held only once confirmed (issue 35.4): an unconfirmed registration no longer blocks
-- the real owner for 24 hours. Several unconfirmed registrations of one address may wait; the first one
-- confirmed holds it, and the others that never confirmed any address are superseded at that moment.
ALTER TABLE agents ADD COLUMN first_confirmed_at timestamptz;
UPDATE agents SET first_confirmed_at = email_confirmed_at WHERE email_confirmed_at IS NOT NULL;
DROP INDEX agents_owner_email;
CREATE UNIQUE INDEX agents_owner_email ON agents (lower(owner_email)) WHERE email_confirmed_at IS NOT NULL;
CREATE INDEX agents_owner_email_pending ON agents (lower(owner_email)) WHERE email_confirmed_at IS NULL;
