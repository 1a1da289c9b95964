-- The places a company serves beyond its own city (issue 38: "service area"): towns, regions or countries as the
-- owner writes them, at most 20. Set by owners (PUT and the AI edit), never by the crawl; in the change feed through
-- company_feed_view (0032).
ALTER TABLE companies ADD COLUMN service_areas text[] NOT NULL DEFAULT '{}';
