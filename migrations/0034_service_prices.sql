-- Prices per service (issue 39): a list of {service, from, to?, currency (ISO 4217), unit}, at most 30, set by
-- owners and read by the crawl where a site prices a service on its own line (lib/price-range.ts). An empty list,
-- not SQL NULL, when none are known: agents read a list either way, and the company's price_range stays the summary.
-- The change feed needs no change: 0032 compares the whole row, so this column is in it already.
ALTER TABLE companies ADD COLUMN service_prices jsonb NOT NULL DEFAULT '[]'::jsonb;
