-- Crawl extraction accuracy (issue 19): the phone in E.164 beside its display form, and the
-- company's other locations (branches) beside its main address.
--
-- phone_e164: the phone parsed with libphonenumber (lib/phone.ts) for the company's country; set by
-- the service on every write of the phone (crawl, owner edit, import, seed), null when it does not parse.
-- locations: [{address, city, country, phone?}], the addresses the crawl found beyond the main one
-- (at most 20), replaced by each crawl that finds any.
ALTER TABLE companies ADD COLUMN phone_e164 text;
ALTER TABLE companies ADD COLUMN locations jsonb NOT NULL DEFAULT '[]'::jsonb;

-- Agents read both: the change feed (0014) records a write that changes them.
DROP TRIGGER companies_changes_update ON companies;
CREATE TRIGGER companies_changes_update AFTER UPDATE ON companies
  FOR EACH ROW WHEN (
    (OLD.name, OLD.website_url, OLD.domain, OLD.category, OLD.industry, OLD.description, OLD.country, OLD.country_code,
     OLD.city, OLD.address, OLD.service_type, OLD.is_verified, OLD.is_featured, OLD.keywords, OLD.services, OLD.languages,
     OLD.contact_email, OLD.phone, OLD.social_links, OLD.logo_url, OLD.founded_year, OLD.deleted_at, OLD.latitude, OLD.longitude,
     OLD.phone_e164, OLD.locations)
    IS DISTINCT FROM
    (NEW.name, NEW.website_url, NEW.domain, NEW.category, NEW.industry, NEW.description, NEW.country, NEW.country_code,
     NEW.city, NEW.address, NEW.service_type, NEW.is_verified, NEW.is_featured, NEW.keywords, NEW.services, NEW.languages,
     NEW.contact_email, NEW.phone, NEW.social_links, NEW.logo_url, NEW.founded_year, NEW.deleted_at, NEW.latitude, NEW.longitude,
     NEW.phone_e164, NEW.locations))
  EXECUTE FUNCTION company_changes_record();

-- The dashboard reads a company's latest crawl (where each field came from).
CREATE INDEX crawl_jobs_company ON crawl_jobs (company_id, id DESC) WHERE status = 'succeeded';
