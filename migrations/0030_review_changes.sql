-- A review published, hidden, restored or answered changes what agents read of its company (the rating
-- and the reviews), so the change feed records a change of the company, as for its own columns (0014), and
-- caches of company pages move on ('companies_changed', 0008). Reviews are inserted as invitations (nothing
-- an agent reads), so only updates count.
CREATE FUNCTION review_company_changes_record() RETURNS trigger AS $$
BEGIN
  INSERT INTO company_changes (company_id, txid, seq, removed, changed_at)
  SELECT c.id, pg_current_xact_id(), nextval('company_changes_seq'), c.deleted_at IS NOT NULL, now()
    FROM companies c WHERE c.id = NEW.company_id
  ON CONFLICT (company_id) DO UPDATE
    SET txid = EXCLUDED.txid, seq = EXCLUDED.seq, removed = EXCLUDED.removed, changed_at = EXCLUDED.changed_at;
  PERFORM pg_notify('companies_changed', '');
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER reviews_company_changes AFTER UPDATE ON reviews
  FOR EACH ROW WHEN (
    (OLD.status = 'published' OR NEW.status = 'published')
    AND (OLD.status, OLD.rating, OLD.body, OLD.reply) IS DISTINCT FROM (NEW.status, NEW.rating, NEW.body, NEW.reply))
  EXECUTE FUNCTION review_company_changes_record();
