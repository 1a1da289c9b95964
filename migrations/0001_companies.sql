-- Extensions: pgvector for embeddings, pg_trgm for names, acronyms and misspellings.
CREATE EXTENSION IF NOT EXISTS vector;
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE companies (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text NOT NULL,
  website_url   text NOT NULL,
  -- host in lower case without scheme, "www." or path: the identity of a company's website
  domain        text NOT NULL,
  category      text NOT NULL,
  industry      text NOT NULL DEFAULT '',
  description   text NOT NULL DEFAULT '',
  country       text NOT NULL DEFAULT '',
  -- ISO 3166-1 alpha-2, derived from country; lets filters accept names and codes
  country_code  text NOT NULL DEFAULT '',
  city          text NOT NULL DEFAULT '',
  address       text NOT NULL DEFAULT '',
  service_type  text NOT NULL DEFAULT 'remote' CHECK (service_type IN ('remote', 'local', 'nationwide', 'hybrid')),
  is_verified   boolean NOT NULL DEFAULT false,
  is_featured   boolean NOT NULL DEFAULT false,
  keywords      text[] NOT NULL DEFAULT '{}',
  services      text[] NOT NULL DEFAULT '{}',
  languages     text[] NOT NULL DEFAULT '{}',
  contact_email text,
  phone         text,
  social_links  jsonb NOT NULL DEFAULT '{}'::jsonb,
  logo_url      text,
  founded_year  integer,
  -- where the profile came from: import, seed, crawl, owner
  source        text NOT NULL DEFAULT 'import',
  search_vector tsvector,
  embedding     vector(512),
  embedding_model text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);

-- One live company per website; a deleted one frees its domain.
CREATE UNIQUE INDEX companies_domain_live ON companies (domain) WHERE deleted_at IS NULL;
CREATE INDEX companies_search_vector ON companies USING gin (search_vector);
CREATE INDEX companies_name_trgm ON companies USING gin (lower(name) gin_trgm_ops);
CREATE INDEX companies_embedding ON companies USING hnsw (embedding vector_cosine_ops);
CREATE INDEX companies_created ON companies (created_at DESC, id DESC);
CREATE INDEX companies_browse ON companies (is_featured DESC, is_verified DESC, name, id) WHERE deleted_at IS NULL;
CREATE INDEX companies_category ON companies (lower(category));
CREATE INDEX companies_country_code ON companies (country_code);

-- Weighted full-text document: name (A), industry, keywords and services (B), description (C),
-- place (D). 'simple' copies keep non-English words and codes that English stemming would mangle.
CREATE FUNCTION companies_search_vector_update() RETURNS trigger AS $$
BEGIN
  NEW.search_vector :=
    setweight(to_tsvector('english', coalesce(NEW.name, '')), 'A') ||
    setweight(to_tsvector('simple', coalesce(NEW.name, '')), 'A') ||
    setweight(to_tsvector('english', coalesce(NEW.industry, '') || ' ' || array_to_string(NEW.keywords, ' ') || ' ' || array_to_string(NEW.services, ' ')), 'B') ||
    setweight(to_tsvector('simple', array_to_string(NEW.keywords, ' ')), 'B') ||
    setweight(to_tsvector('english', coalesce(NEW.description, '')), 'C') ||
    setweight(to_tsvector('simple', coalesce(NEW.city, '') || ' ' || coalesce(NEW.country, '')), 'D');
  RETURN NEW;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER companies_search_vector_trg
  BEFORE INSERT OR UPDATE OF name, industry, keywords, services, description, city, country
  ON companies FOR EACH ROW EXECUTE FUNCTION companies_search_vector_update();
