-- The in-process vector index (src/modules/search/vector-sync.ts) follows company writes by the
-- writing transaction: every insert or update stamps the row with pg_current_xact_id(). An index
-- that took pg_snapshot_xmin(pg_current_snapshot()) before its last read re-reads every row
-- stamped at or after it: any transaction that committed after that read has such an id, so no
-- write is missed even when transactions commit out of order. Hard deletes leave a tombstone in
-- company_changes (0014). Rows written before this migration have no stamp: an index loads them
-- all at start.
ALTER TABLE companies ADD COLUMN written_txid xid8;

CREATE FUNCTION companies_stamp_written_txid() RETURNS trigger AS $$
BEGIN
  NEW.written_txid := pg_current_xact_id();
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER companies_written_txid BEFORE INSERT OR UPDATE ON companies
  FOR EACH ROW EXECUTE FUNCTION companies_stamp_written_txid();

CREATE INDEX companies_written_txid ON companies (written_txid) WHERE written_txid IS NOT NULL;
