-- Prices (issue 39): a price range {from, to?, currency (ISO 4217), unit} set by owners, SQL NULL when unknown.
-- The companies module writes it; the change feed records a change of it.
ALTER TABLE companies ADD COLUMN price_range jsonb;

DROP TRIGGER companies_changes_update ON companies;
CREATE TRIGGER companies_changes_update AFTER UPDATE ON companies
  FOR EACH ROW WHEN (
    (OLD.name, OLD.website_url, OLD.domain, OLD.category, OLD.industry, OLD.description, OLD.country, OLD.country_code,
     OLD.city, OLD.address, OLD.service_type, OLD.is_verified, OLD.is_featured, OLD.keywords, OLD.services, OLD.languages,
     OLD.contact_email, OLD.phone, OLD.social_links, OLD.logo_url, OLD.founded_year, OLD.deleted_at, OLD.latitude, OLD.longitude,
     OLD.phone_e164, OLD.locations, OLD.opening_hours, OLD.timezone, OLD.price_range)
    IS DISTINCT FROM
    (NEW.name, NEW.website_url, NEW.domain, NEW.category, NEW.industry, NEW.description, NEW.country, NEW.country_code,
     NEW.city, NEW.address, NEW.service_type, NEW.is_verified, NEW.is_featured, NEW.keywords, NEW.services, NEW.languages,
     NEW.contact_email, NEW.phone, NEW.social_links, NEW.logo_url, NEW.founded_year, NEW.deleted_at, NEW.latitude, NEW.longitude,
     NEW.phone_e164, NEW.locations, NEW.opening_hours, NEW.timezone, NEW.price_range))
  EXECUTE FUNCTION company_changes_record();
