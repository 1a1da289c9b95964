-- Photos (issue 39): a company's gallery. Owners upload (normalised to a JPEG of at most 1600 px, metadata
-- stripped, photo.ts); the bytes live in company_photos. companies.photos holds the published gallery in
-- order ({id, width, height, caption}), so a profile read needs no join and a change to the gallery reaches
-- the change feed through the companies trigger. The companies module is the one writer of both.
CREATE TABLE company_photos (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id   uuid NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
  content_type text NOT NULL,
  bytes        bytea NOT NULL,
  width        integer NOT NULL,
  height       integer NOT NULL,
  etag         text NOT NULL,
  caption      text NOT NULL DEFAULT '',
  source       text NOT NULL DEFAULT 'owner' CHECK (source IN ('owner', 'admin', 'crawl')),
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX company_photos_company ON company_photos (company_id, created_at);

ALTER TABLE companies ADD COLUMN photos jsonb NOT NULL DEFAULT '[]'::jsonb;

DROP TRIGGER companies_changes_update ON companies;
CREATE TRIGGER companies_changes_update AFTER UPDATE ON companies
  FOR EACH ROW WHEN (
    (OLD.name, OLD.website_url, OLD.domain, OLD.category, OLD.industry, OLD.description, OLD.country, OLD.country_code,
     OLD.city, OLD.address, OLD.service_type, OLD.is_verified, OLD.is_featured, OLD.keywords, OLD.services, OLD.languages,
     OLD.contact_email, OLD.phone, OLD.social_links, OLD.logo_url, OLD.founded_year, OLD.deleted_at, OLD.latitude, OLD.longitude,
     OLD.phone_e164, OLD.locations, OLD.opening_hours, OLD.timezone, OLD.price_range, OLD.photos)
    IS DISTINCT FROM
    (NEW.name, NEW.website_url, NEW.domain, NEW.category, NEW.industry, NEW.description, NEW.country, NEW.country_code,
     NEW.city, NEW.address, NEW.service_type, NEW.is_verified, NEW.is_featured, NEW.keywords, NEW.services, NEW.languages,
     NEW.contact_email, NEW.phone, NEW.social_links, NEW.logo_url, NEW.founded_year, NEW.deleted_at, NEW.latitude, NEW.longitude,
     NEW.phone_e164, NEW.locations, NEW.opening_hours, NEW.timezone, NEW.price_range, NEW.photos))
  EXECUTE FUNCTION company_changes_record();
