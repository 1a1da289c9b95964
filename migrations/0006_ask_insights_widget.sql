-- Audience insights: questions and searches the directory or a company could not answer well.
-- Only the question text is stored (no IP, no user agent, no visitor id): it is what an end user
-- typed, kept for the company owner to improve their profile. Rows older than 180 days are
-- purged by the insights service (at most once an hour, on write).
CREATE TABLE insight_queries (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- the company the question concerns; NULL = directory-wide (nothing matched at all)
  company_id  uuid REFERENCES companies(id) ON DELETE CASCADE,
  -- insight category (topic), assigned deterministically from the question text
  category    text NOT NULL,
  question    text NOT NULL,
  source      text NOT NULL CHECK (source IN ('search', 'ask', 'widget')),
  -- why it counts as unanswered: no_result, low_score, nothing_fits, unanswered
  reason      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX insight_queries_company ON insight_queries (company_id, category, created_at DESC);
CREATE INDEX insight_queries_created ON insight_queries (created_at);

-- One chat-widget configuration per company; addressed publicly by widget_public_id only.
CREATE TABLE widget_configs (
  company_id       uuid PRIMARY KEY REFERENCES companies(id) ON DELETE CASCADE,
  widget_public_id text NOT NULL UNIQUE,
  enabled          boolean NOT NULL DEFAULT false,
  title            text NOT NULL DEFAULT '',
  greeting         text NOT NULL DEFAULT '',
  primary_color    text NOT NULL DEFAULT '#1f6feb',
  text_color       text NOT NULL DEFAULT '#ffffff',
  position         text NOT NULL DEFAULT 'bottom-right' CHECK (position IN ('bottom-right', 'bottom-left')),
  -- origins (scheme://host[:port]) allowed to embed; empty = the company's own website only
  allowed_origins  text[] NOT NULL DEFAULT '{}',
  -- what answers may use: profile, pages (crawled pages when the crawl module stored them)
  sources          text[] NOT NULL DEFAULT '{profile,pages}',
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);

