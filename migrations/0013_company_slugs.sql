-- Stable public URLs for companies (/companies/{slug}): a unique slug made once from the name and
-- city ("acme-plumbing-berlin", then "-2", "-3" ... for a namesake). It is assigned by a trigger, so
-- every way a company is written (import, crawl, owner, seed, bench) gets one. It changes only when
-- the name or city change so much that the slug reads differently; the old slug is then kept in
-- company_old_slugs and answers 301 to the current one. A slug, current or old, is never reused.

ALTER TABLE companies ADD COLUMN slug text;

CREATE TABLE company_old_slugs (
  slug        text PRIMARY KEY,
  company_id  uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  retired_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX company_old_slugs_company ON company_old_slugs (company_id);

-- ASCII words of name + city (the city left out when the name already says it), at most 80 characters.
CREATE FUNCTION company_slug_base(p_name text, p_city text) RETURNS text AS $$
DECLARE
  n text := lower(coalesce(p_name, ''));
  c text := lower(coalesce(p_city, ''));
  s text;
BEGIN
  IF c <> '' AND position(c IN n) = 0 THEN n := n || ' ' || c; END IF;
  n := replace(replace(replace(replace(replace(n, 'ß', 'ss'), 'æ', 'ae'), 'œ', 'oe'), 'ø', 'o'), '&', ' and ');
  n := translate(n,
    'àáâãäåāăąçćčďđèéêëēėęěìíîïīįıľłñńňòóôõöōőŕřśšşťţùúûüūůűųýÿžźż',
    'aaaaaaaaaccccddeeeeeeeeiiiiiiillnnnooooooorrssstttuuuuuuuuyyzzz');
  s := btrim(regexp_replace(n, '[^a-z0-9]+', '-', 'g'), '-');
  s := btrim(left(s, 80), '-');
  IF s = '' THEN s := 'company'; END IF;
  RETURN s;
END
$$ LANGUAGE plpgsql IMMUTABLE;

-- A slug no other company holds or held: base, base-2, base-3 ...; after a few namesakes a short
-- suffix from the id keeps this O(1) however common the name.
CREATE FUNCTION company_slug_free(p_base text, p_id uuid) RETURNS text AS $$
DECLARE
  candidate text := p_base;
  n integer := 1;
BEGIN
  LOOP
    IF NOT EXISTS (SELECT 1 FROM companies WHERE slug = candidate AND id <> p_id)
       AND NOT EXISTS (SELECT 1 FROM company_old_slugs WHERE slug = candidate AND company_id <> p_id) THEN
      RETURN candidate;
    END IF;
    n := n + 1;
    IF n > 6 THEN
      candidate := p_base || '-' || substr(md5(p_id::text || n::text), 1, 6);
    ELSE
      candidate := p_base || '-' || n;
    END IF;
  END LOOP;
END
$$ LANGUAGE plpgsql;

CREATE FUNCTION companies_slug_assign() RETURNS trigger AS $$
DECLARE
  base text := company_slug_base(NEW.name, NEW.city);
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.slug IS NOT NULL THEN
    -- Same words (or a namesake suffix of them): the URL stays as it is.
    IF OLD.slug = base OR OLD.slug ~ ('^' || base || '-([0-9]+|[0-9a-f]{6})$') THEN
      NEW.slug := OLD.slug;
      RETURN NEW;
    END IF;
    NEW.slug := company_slug_free(base, NEW.id);
    INSERT INTO company_old_slugs (slug, company_id) VALUES (OLD.slug, NEW.id) ON CONFLICT (slug) DO NOTHING;
    -- Back to a slug it held before: that one is current again, not a redirect.
    DELETE FROM company_old_slugs WHERE slug = NEW.slug AND company_id = NEW.id;
    RETURN NEW;
  END IF;
  IF NEW.slug IS NULL THEN NEW.slug := company_slug_free(base, NEW.id); END IF;
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

-- Existing companies, oldest first (the first of namesakes keeps the plain slug).
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT id, name, city FROM companies ORDER BY created_at, id LOOP
    UPDATE companies SET slug = company_slug_free(company_slug_base(r.name, r.city), r.id) WHERE id = r.id;
  END LOOP;
END
$$;

CREATE UNIQUE INDEX companies_slug ON companies (slug);
ALTER TABLE companies ALTER COLUMN slug SET NOT NULL;

CREATE TRIGGER companies_slug_trg
  BEFORE INSERT OR UPDATE OF name, city ON companies
  FOR EACH ROW EXECUTE FUNCTION companies_slug_assign();

-- Sitemaps list live companies in id order with their last change.
CREATE INDEX companies_sitemap ON companies (id, updated_at) WHERE deleted_at IS NULL;
