-- Who opened a checkout ('user:<id>' or 'admin:<email>'): an open checkout is reused only for that caller,
-- and the local test provider's success page completes only a checkout the signed-in caller opened.
-- Checkouts opened before this column existed have none and are never reused or completed by the local provider.
ALTER TABLE checkouts ADD COLUMN opened_by text;
-- An Idempotency-Key names one caller's request: another caller's key never returns this caller's checkout.
DROP INDEX checkouts_idempotency;
CREATE UNIQUE INDEX checkouts_idempotency ON checkouts (company_id, opened_by, idempotency_key) WHERE idempotency_key IS NOT NULL;
