import { Type, type Static } from 'typebox';

export const CrawlRequestSchema = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'The website to crawl: a URL (http or https) or a bare domain such as acme.com' }),
    options: Type.Optional(
      Type.Object(
        {
          max_pages: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Pages to fetch at most (the server caps it at its configured limit, default 20)' })),
          max_depth: Type.Optional(Type.Integer({ minimum: 0, maximum: 10, description: 'Link depth from the home page (capped at the configured limit)' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'CrawlRequest', additionalProperties: false },
);
export type CrawlRequest = Static<typeof CrawlRequestSchema>;

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const CrawlJobSchema = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String(),
    domain: Type.String(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('succeeded'), Type.Literal('failed')]),
    stage: Type.String({ description: 'queued, robots, fetch, analyse, save, done or failed' }),
    pages_fetched: Type.Integer(),
    company_id: Nullable(Type.String({ format: 'uuid' })),
    attempts: Type.Integer({ description: 'Runs so far (an interrupted run is retried)' }),
    error: Nullable(Type.String()),
    problem: Nullable(Type.String({ description: 'For a failed crawl: why, and what to do, in a sentence for people (error is the raw reason for operators)' })),
    strategies_tried: Type.Array(Type.String(), { description: 'standard, then with adaptive retry: sitemap_only, entry_pages, slow_pacing' }),
    changed_fields: Type.Array(Type.String(), { description: 'Profile fields the crawl changed' }),
    kept_owner_edits: Type.Array(Type.String(), { description: 'Fields the owner edited by hand, left as they were' }),
    created_at: Type.String({ format: 'date-time' }),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
    duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: 'CrawlJob' },
);
export type CrawlJobView = Static<typeof CrawlJobSchema>;

/** What anyone may see of a job (GET /api/crawl/{job_id} without a credential that may see it all). */
export const CrawlJobProgressSchema = Type.Object(
  {
    id: Type.Integer(),
    status: CrawlJobSchema.properties.status,
    stage: CrawlJobSchema.properties.stage,
    pages_fetched: Type.Integer(),
    attempts: Type.Integer(),
    created_at: Type.String({ format: 'date-time' }),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
    duration_ms: Type.Union([Type.Integer(), Type.Null()]),
  },
  { $id: 'CrawlJobProgress', additionalProperties: false },
);
export type CrawlJobProgress = Static<typeof CrawlJobProgressSchema>;

export const CrawlEventSchema = Type.Object({
  at: Type.String({ format: 'date-time' }),
  stage: Type.String(),
  message: Type.String(),
  data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const CrawlJobDetailSchema = Type.Object(
  {
    job: Type.Ref('CrawlJob'),
    user_id: Nullable(Type.String()),
    requested_by: Type.String({ description: 'user, admin, magic_link or system' }),
    options: Type.Record(Type.String(), Type.Unknown()),
    error_kind: Nullable(Type.String()),
    raw_error: Nullable(Type.String()),
    result: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    events: Type.Array(CrawlEventSchema),
  },
  { $id: 'CrawlJobDetail' },
);

export const CrawlResultSchema = Type.Object(
  {
    job: Type.Union([Type.Ref('CrawlJob'), Type.Null()], { description: 'The tracked job (null with track_job=false)' }),
    profile: Type.Ref('CompanyProfile'),
    outcome: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('unchanged')]),
    changes: Type.Array(Type.Object({ field: Type.String(), before: Type.Unknown(), after: Type.Unknown() })),
    kept_owner_edits: Type.Array(Type.String()),
    strategies_tried: Type.Array(Type.String()),
    pages_fetched: Type.Integer(),
    analyser: Type.Union([Type.Literal('llm'), Type.Literal('rules')], { description: 'llm when a language model analysed the site, rules otherwise' }),
  },
  { $id: 'CrawlResult' },
);

export const CrawlStartedSchema = Type.Object(
  {
    job_id: Type.Integer(),
    status: Type.String(),
    job: Type.Ref('CrawlJob'),
    status_url: Type.String({ description: 'Poll this for progress' }),
  },
  { $id: 'CrawlStarted' },
);

export const MyLatestSchema = Type.Object(
  {
    job: Type.Union([Type.Ref('CrawlJob'), Type.Null()]),
    company: Type.Union([Type.Object({ id: Type.String(), name: Type.String(), website_url: Type.String() }), Type.Null()]),
  },
  { $id: 'CrawlMyLatest' },
);

export const FieldSourceSchema = Type.Object({
  value: Type.String({ description: 'The value the crawl found (the phone in E.164)' }),
  method: Type.String({ description: 'How: jsonld, microdata, og:site_name, logo-alt, copyright, title, tel, text, structured-address, address-shape, tld, ... (llm:… when a language model chose among the candidates)' }),
  url: Type.String({ description: 'The page it was found on (empty when not from one page)' }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
}, { $id: 'CrawlFieldSource' });

export const PROVENANCE_FIELDS = ['name', 'phone', 'city', 'country', 'address'] as const;

/** Where the crawled fields of a company came from (GET /api/crawl/company/{tool_id}/provenance). */
export const CrawlProvenanceSchema = Type.Object(
  {
    job_id: Type.Union([Type.Integer(), Type.Null()], { description: "The company's latest successful crawl; null when it was never crawled" }),
    crawled_at: Nullable(Type.String({ format: 'date-time' })),
    analyser: Type.Union([Type.Literal('llm'), Type.Literal('rules'), Type.Null()]),
    fields: Type.Object(Object.fromEntries(PROVENANCE_FIELDS.map((f) => [f, Type.Optional(Type.Ref('CrawlFieldSource'))])), {
      description: 'Per field (name, phone, city, country, address): value, source page, method and confidence; a field the crawl left empty is absent',
    }),
  },
  { $id: 'CrawlProvenance' },
);
export type CrawlProvenance = Static<typeof CrawlProvenanceSchema>;

export const CrawlStatsSchema = Type.Object(
  {
    hours: Type.Integer(),
    total: Type.Integer(),
    by_status: Type.Object({ queued: Type.Integer(), running: Type.Integer(), succeeded: Type.Integer(), failed: Type.Integer() }),
    success_rate: Type.Union([Type.Number(), Type.Null()], { description: 'succeeded / (succeeded + failed), null when none finished' }),
    median_duration_ms: Type.Union([Type.Number(), Type.Null()]),
    avg_pages_fetched: Type.Union([Type.Number(), Type.Null()]),
    top_errors: Type.Array(Type.Object({ kind: Type.String(), count: Type.Integer(), example: Type.String() })),
  },
  { $id: 'CrawlStats' },
);

export const CrawlRecentSchema = Type.Object(
  {
    jobs: Type.Array(Type.Ref('CrawlJob')),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
  },
  { $id: 'CrawlRecent' },
);

export const CrawlHeldQueueSchema = Type.Object(
  {
    held: Type.Array(
      Type.Intersect([
        Type.Ref('HeldField'),
        Type.Object({ company_id: Type.String({ format: 'uuid' }), company_name: Type.String(), website_url: Type.String() }),
      ]),
      { description: 'Values crawls read but were not sure of, oldest first; use or dismiss one with POST /api/tools/{company_id}/held-fields/{id}/accept or /dismiss' },
    ),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
  },
  { $id: 'CrawlHeldQueue' },
);

export const crawlSchemas = [
  CrawlHeldQueueSchema,
  CrawlRequestSchema,
  CrawlJobSchema,
  CrawlJobProgressSchema,
  CrawlJobDetailSchema,
  CrawlResultSchema,
  CrawlStartedSchema,
  MyLatestSchema,
  FieldSourceSchema,
  CrawlProvenanceSchema,
  CrawlStatsSchema,
  CrawlRecentSchema,
];
