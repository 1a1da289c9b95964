-- Coordinates and a change feed for agent developers (issue 18).
--
-- latitude/longitude: the company's city as an offline gazetteer places it (lib/gazetteer.ts,
-- GeoNames cities); set by the service on import, crawl and edit, null when the city is unknown.
ALTER TABLE companies ADD COLUMN latitude double precision;
ALTER TABLE companies ADD COLUMN longitude double precision;
CREATE INDEX companies_updated ON companies (updated_at) WHERE deleted_at IS NULL;

-- One row per company that ever existed: its latest change. `txid` is the writing transaction and
-- `seq` orders changes inside it. Readers only see rows whose transaction is older than every
-- transaction still running (pg_snapshot_xmin), so a change that commits late can never land
-- behind a cursor an agent already holds: the feed never skips a change, even when writes
-- commit out of order. Removed companies stay as tombstones.
CREATE SEQUENCE company_changes_seq;
CREATE TABLE company_changes (
  company_id  uuid PRIMARY KEY,
  txid        xid8 NOT NULL,
  seq         bigint NOT NULL,
  removed     boolean NOT NULL,
  changed_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX company_changes_order ON company_changes (txid, seq);

CREATE FUNCTION company_changes_record() RETURNS trigger AS $$
DECLARE
  rec companies%ROWTYPE;
  gone boolean;
BEGIN
  IF TG_OP = 'DELETE' THEN
    rec := OLD; gone := true;
  ELSE
    rec := NEW; gone := NEW.deleted_at IS NOT NULL;
  END IF;
  INSERT INTO company_changes (company_id, txid, seq, removed, changed_at)
  VALUES (rec.id, pg_current_xact_id(), nextval('company_changes_seq'), gone, now())
  ON CONFLICT (company_id) DO UPDATE
    SET txid = EXCLUDED.txid, seq = EXCLUDED.seq, removed = EXCLUDED.removed, changed_at = EXCLUDED.changed_at;
  RETURN NULL;
END
$$ LANGUAGE plpgsql;

-- Only writes that change what an agent can read count (an embedding refresh alone does not).
CREATE TRIGGER companies_changes_insert AFTER INSERT ON companies
  FOR EACH ROW EXECUTE FUNCTION company_changes_record();
CREATE TRIGGER companies_changes_update AFTER UPDATE ON companies
  FOR EACH ROW WHEN (
    (OLD.name, OLD.website_url, OLD.domain, OLD.category, OLD.industry, OLD.description, OLD.country, OLD.country_code,
     OLD.city, OLD.address, OLD.service_type, OLD.is_verified, OLD.is_featured, OLD.keywords, OLD.services, OLD.languages,
     OLD.contact_email, OLD.phone, OLD.social_links, OLD.logo_url, OLD.founded_year, OLD.deleted_at, OLD.latitude, OLD.longitude)
    IS DISTINCT FROM
    (NEW.name, NEW.website_url, NEW.domain, NEW.category, NEW.industry, NEW.description, NEW.country, NEW.country_code,
     NEW.city, NEW.address, NEW.service_type, NEW.is_verified, NEW.is_featured, NEW.keywords, NEW.services, NEW.languages,
     NEW.contact_email, NEW.phone, NEW.social_links, NEW.logo_url, NEW.founded_year, NEW.deleted_at, NEW.latitude, NEW.longitude))
  EXECUTE FUNCTION company_changes_record();
CREATE TRIGGER companies_changes_delete AFTER DELETE ON companies
  FOR EACH ROW EXECUTE FUNCTION company_changes_record();

-- Companies that exist already: one change each, in creation order.
INSERT INTO company_changes (company_id, txid, seq, removed, changed_at)
SELECT id, pg_current_xact_id(), nextval('company_changes_seq'), deleted_at IS NOT NULL, updated_at
  FROM (SELECT id, deleted_at, updated_at FROM companies ORDER BY created_at, id) c;
