-- Corpus statistics for BM25-style keyword ranking, maintained on write by statement-level
-- triggers (one pass per statement, so bulk imports stay fast):
--   search_term_stats: in how many live companies each lexeme of search_vector occurs (df);
--   search_corpus_stats: number of live companies, total lexemes (for the average length) and a
--   version bumped by every company write, which the search service uses to invalidate its cache.
CREATE TABLE search_term_stats (
  lexeme text PRIMARY KEY,
  df     integer NOT NULL
);

CREATE TABLE search_corpus_stats (
  id      boolean PRIMARY KEY DEFAULT true CHECK (id),
  docs    bigint NOT NULL DEFAULT 0,
  lexemes bigint NOT NULL DEFAULT 0,
  version bigint NOT NULL DEFAULT 0
);

INSERT INTO search_corpus_stats (id, docs, lexemes)
SELECT true, count(*), coalesce(sum(length(search_vector)), 0) FROM companies WHERE deleted_at IS NULL;

INSERT INTO search_term_stats (lexeme, df)
SELECT u.lexeme, count(*) FROM companies c, unnest(c.search_vector) u WHERE c.deleted_at IS NULL GROUP BY u.lexeme;

-- Applies the difference between the old and new versions of the changed rows (deleted rows
-- count as absent). Sorted by lexeme so concurrent writers lock rows in the same order.
CREATE FUNCTION companies_search_stats_apply(added bigint, removed bigint, added_len bigint, removed_len bigint) RETURNS void AS $$
BEGIN
  UPDATE search_corpus_stats
     SET docs = docs + added - removed, lexemes = lexemes + added_len - removed_len, version = version + 1;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION companies_search_stats_ins() RETURNS trigger AS $$
BEGIN
  INSERT INTO search_term_stats (lexeme, df)
  SELECT u.lexeme, count(*)::int FROM new_rows n, unnest(n.search_vector) u
   WHERE n.deleted_at IS NULL GROUP BY u.lexeme ORDER BY u.lexeme
  ON CONFLICT (lexeme) DO UPDATE SET df = search_term_stats.df + EXCLUDED.df;
  PERFORM companies_search_stats_apply(
    (SELECT count(*) FROM new_rows WHERE deleted_at IS NULL), 0,
    (SELECT coalesce(sum(length(search_vector)), 0) FROM new_rows WHERE deleted_at IS NULL), 0);
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION companies_search_stats_upd() RETURNS trigger AS $$
BEGIN
  INSERT INTO search_term_stats (lexeme, df)
  SELECT lexeme, sum(d)::int FROM (
      SELECT u.lexeme, 1 AS d FROM new_rows n, unnest(n.search_vector) u WHERE n.deleted_at IS NULL
      UNION ALL
      SELECT u.lexeme, -1 AS d FROM old_rows o, unnest(o.search_vector) u WHERE o.deleted_at IS NULL
    ) x
   GROUP BY lexeme HAVING sum(d) <> 0 ORDER BY lexeme
  ON CONFLICT (lexeme) DO UPDATE SET df = search_term_stats.df + EXCLUDED.df;
  PERFORM companies_search_stats_apply(
    (SELECT count(*) FROM new_rows WHERE deleted_at IS NULL),
    (SELECT count(*) FROM old_rows WHERE deleted_at IS NULL),
    (SELECT coalesce(sum(length(search_vector)), 0) FROM new_rows WHERE deleted_at IS NULL),
    (SELECT coalesce(sum(length(search_vector)), 0) FROM old_rows WHERE deleted_at IS NULL));
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION companies_search_stats_del() RETURNS trigger AS $$
BEGIN
  INSERT INTO search_term_stats (lexeme, df)
  SELECT u.lexeme, -count(*)::int FROM old_rows o, unnest(o.search_vector) u
   WHERE o.deleted_at IS NULL GROUP BY u.lexeme ORDER BY u.lexeme
  ON CONFLICT (lexeme) DO UPDATE SET df = search_term_stats.df + EXCLUDED.df;
  PERFORM companies_search_stats_apply(0,
    (SELECT count(*) FROM old_rows WHERE deleted_at IS NULL), 0,
    (SELECT coalesce(sum(length(search_vector)), 0) FROM old_rows WHERE deleted_at IS NULL));
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER companies_search_stats_ins AFTER INSERT ON companies
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION companies_search_stats_ins();
CREATE TRIGGER companies_search_stats_upd AFTER UPDATE ON companies
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION companies_search_stats_upd();
CREATE TRIGGER companies_search_stats_del AFTER DELETE ON companies
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION companies_search_stats_del();
CREATE INDEX search_term_stats_prefix ON search_term_stats (lexeme text_pattern_ops);

-- Filters by city and service type (case-insensitive city): used to decide and run exact
-- vector scans for selective filters.
CREATE INDEX companies_city_lower ON companies (lower(city));
CREATE INDEX companies_service_type ON companies (service_type);
