-- Readable plain text of the pages a crawl fetched, per company (the chat widget answers from it).
-- Each successful crawl replaces the company's set; page text is capped by the crawl module.
CREATE TABLE company_pages (
  company_id  uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  url         text NOT NULL,
  -- crawl order (home page first, then pages by importance): readers take the first few
  position    integer NOT NULL DEFAULT 0,
  title       text NOT NULL DEFAULT '',
  text        text NOT NULL DEFAULT '',
  crawled_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, url)
);
