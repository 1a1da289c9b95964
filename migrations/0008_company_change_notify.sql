-- Every statement that writes companies already passes through companies_search_stats_apply
-- (0007's statement triggers). It now also notifies 'companies_changed', delivered on commit, so
-- a process can keep profiles in memory and drop them the moment any company changes.
CREATE OR REPLACE FUNCTION companies_search_stats_apply(added bigint, removed bigint, added_len bigint, removed_len bigint) RETURNS void AS $$
BEGIN
  UPDATE search_corpus_stats
     SET docs = docs + added - removed, lexemes = lexemes + added_len - removed_len, version = version + 1;
  PERFORM pg_notify('companies_changed', '');
END
$$ LANGUAGE plpgsql;
