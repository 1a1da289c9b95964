-- Idempotency-Key on webhook endpoint creation (the REST header and the MCP tool's idempotency_key): the key and the
-- hash of the request that created the endpoint. A retry with the same key within 24 hours returns that endpoint
-- instead of registering a second one; the same key with another request is refused.
ALTER TABLE webhook_endpoints ADD COLUMN idempotency_key text;
ALTER TABLE webhook_endpoints ADD COLUMN idempotency_hash text;
CREATE UNIQUE INDEX webhook_endpoints_idempotency ON webhook_endpoints (agent_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
