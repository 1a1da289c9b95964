-- Company writes on PostgreSQL could deadlock: each statement's stats trigger (0007) locks the
-- term rows it touches (in lexeme order) and then the one corpus row. A transaction with two
-- writes to companies holds the corpus row from its first statement while its second locks more
-- term rows, which a concurrent writer may hold while it waits for the corpus row. Every trigger now
-- takes the corpus row first, so writers queue on that one row (held to commit anyway, since every
-- write bumps its version) before any term row.
CREATE OR REPLACE FUNCTION companies_search_stats_ins() RETURNS trigger AS $$
BEGIN
  PERFORM 1 FROM search_corpus_stats FOR UPDATE;
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

CREATE OR REPLACE FUNCTION companies_search_stats_upd() RETURNS trigger AS $$
BEGIN
  PERFORM 1 FROM search_corpus_stats FOR UPDATE;
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

CREATE OR REPLACE FUNCTION companies_search_stats_del() RETURNS trigger AS $$
BEGIN
  PERFORM 1 FROM search_corpus_stats FOR UPDATE;
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
