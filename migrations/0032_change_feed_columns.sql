-- The change feed (0014) records an update of a company when something agents read of it changed.
-- Until now the trigger named every such column, so each migration that added one restated the whole
-- list (0018, 0026, 0027, 0029). It now compares the whole row except the columns agents never read,
-- named once here: a column added later is in the feed without touching the trigger, and only a new
-- internal column has to be added to this list.
--   source, owner_edited_fields, field_sources: bookkeeping of who wrote what (a crawl that confirms
--     unchanged values must not look like a change);
--   search_vector, embedding, embedding_model, written_txid: search's derived data and its cursor;
--   slug: derived from the name, which is compared; created_at, updated_at: timestamps.
-- STABLE, not IMMUTABLE: a timestamp's JSON text follows the session's time zone (both rows of one update share it).
CREATE FUNCTION company_feed_view(c companies) RETURNS jsonb AS $$
  SELECT to_jsonb(c) - ARRAY['source', 'owner_edited_fields', 'field_sources', 'search_vector', 'embedding',
                             'embedding_model', 'written_txid', 'slug', 'created_at', 'updated_at']
$$ LANGUAGE sql STABLE;

DROP TRIGGER companies_changes_update ON companies;
CREATE TRIGGER companies_changes_update AFTER UPDATE ON companies
  FOR EACH ROW WHEN (company_feed_view(OLD) IS DISTINCT FROM company_feed_view(NEW))
  EXECUTE FUNCTION company_changes_record();
