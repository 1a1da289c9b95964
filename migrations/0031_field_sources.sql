-- Freshness (issue 39): for every field, who last set or confirmed it and when: {"phone": {"source": "crawl",
-- "at": "2026-11-26T20:00:00Z"}, ...}. Owners' and administrators' edits stamp the fields they change; a crawl
-- stamps every field it read (a value read again is confirmed again), except those the owner set by hand.
-- Imports do not stamp: their fields read as the row's source when the row was created (never later than the truth).
ALTER TABLE companies ADD COLUMN field_sources jsonb NOT NULL DEFAULT '{}'::jsonb;
