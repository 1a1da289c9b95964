import { Type, type Static } from 'typebox';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const lit = <T extends string>(xs: readonly T[]) => Type.Unsafe<T>(Type.Union(xs.map((x) => Type.Literal(x))));

export const EvidenceSchema = Type.Object({
  url: Type.String(),
  final_url: Type.Optional(Type.String()),
  http_status: Type.Optional(Nullable(Type.Integer())),
  content_type: Type.Optional(Type.String()),
  bytes: Type.Optional(Type.Integer()),
  elapsed_ms: Type.Optional(Type.Integer()),
  excerpt: Type.Optional(Type.String({ description: 'At most 300 characters of what the site answered' })),
  note: Type.Optional(Type.String()),
});

export const FindingSchema = Type.Object(
  {
    id: Type.String({ description: 'Stable check id (A01…A10 access, D01…D09 discovery, U01…U10 understanding, X01…X07 agent interfaces)' }),
    key: Type.String({ description: 'Stable check name, e.g. robots.ai_allowed' }),
    group: lit(['access', 'discovery', 'understanding', 'interfaces'] as const),
    title: Type.String(),
    severity: lit(['critical', 'high', 'medium', 'low', 'info'] as const),
    weight: Type.Integer({ description: 'critical 10, high 7, medium 4, low 2, info 0' }),
    status: lit(['pass', 'warn', 'fail', 'na', 'error'] as const),
    points_lost: Type.Number({ description: 'weight × (1 − credit); findings are ordered by it' }),
    message: Type.String(),
    evidence: Type.Array(EvidenceSchema),
    fix: Nullable(
      Type.Object({
        summary: Type.String(),
        steps: Type.Optional(Type.Array(Type.String())),
        snippet: Type.Optional(Type.String()),
        bundle_file: Type.Optional(Type.String({ description: 'The file of the agent files bundle that fixes it' })),
      }),
    ),
    spec_url: Nullable(Type.String()),
  },
  { $id: 'ScanFinding' },
);

const GroupScores = Type.Object({
  access: Nullable(Type.Integer()),
  discovery: Nullable(Type.Integer()),
  understanding: Nullable(Type.Integer()),
  interfaces: Nullable(Type.Integer()),
});
const Counts = Type.Object({ pass: Type.Integer(), warn: Type.Integer(), fail: Type.Integer(), na: Type.Integer(), error: Type.Integer() });

export const DeltaSchema = Type.Object({
  score: Nullable(Type.Integer({ description: 'Score change against the previous completed scan' })),
  previous_scan_id: Nullable(Type.String()),
  rubric_changed: Type.Boolean(),
  fixed: Type.Array(Type.String(), { description: 'Check ids that pass now and did not before' }),
  new: Type.Array(Type.String(), { description: 'Check ids that warn or fail now and passed (or did not apply) before' }),
  regressed: Type.Array(Type.String(), { description: 'Check ids that got worse (warn → fail)' }),
});

const ScanFields = {
  id: Type.String({ format: 'uuid' }),
  tool_id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  state: lit(['queued', 'running', 'completed', 'failed'] as const),
  trigger: lit(['manual', 'scheduled'] as const),
  rubric_version: Type.String(),
  score: Nullable(Type.Integer({ minimum: 0, maximum: 100 })),
  grade: Nullable(Type.String({ description: 'A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, F below' })),
  created_at: Type.String({ format: 'date-time' }),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
  delta: DeltaSchema,
};

export const ScanSchema = Type.Object(
  {
    ...ScanFields,
    group_scores: Nullable(GroupScores),
    counts: Nullable(Counts),
    coverage: Nullable(Type.Number({ description: 'Share of the applicable rubric weight that could be verified' })),
    caps: Type.Array(Type.Object({ id: Type.String(), max: Type.Integer(), reason: Type.String() })),
    requests_made: Type.Integer(),
    failure_reason: Nullable(Type.String({ description: 'dns, tls, timeout, unreachable, blocked, invalid_url, private_address, rate_limited or internal' })),
    error: Nullable(Type.String()),
    started_at: Nullable(Type.String({ format: 'date-time' })),
    duration_ms: Nullable(Type.Integer()),
    previous_scan_id: Nullable(Type.String()),
    top_fixes: Type.Array(Type.String(), { description: 'Ids of the three findings that cost the most points' }),
    findings: Type.Array(Type.Ref('ScanFinding')),
  },
  { $id: 'Scan' },
);
export type Finding = Static<typeof FindingSchema>;
export type ScanView = Omit<Static<typeof ScanSchema>, 'findings'> & { findings: Finding[] };

export const ScanStartResponseSchema = Type.Object(
  {
    reused: Type.Boolean({ description: 'True when a recent completed scan (24 h) or the running one is returned instead of a new scan' }),
    scan: Type.Ref('Scan'),
  },
  { $id: 'ScanStartResponse' },
);

export const ScanHistorySchema = Type.Object(
  {
    scans: Type.Array(
      Type.Object({
        ...ScanFields,
        counts: Nullable(Counts),
      }),
    ),
    total: Type.Integer(),
    limit: Type.Integer(),
    offset: Type.Integer(),
    has_more: Type.Boolean(),
  },
  { $id: 'ScanHistory' },
);

export const GenerateFilesBodySchema = Type.Union(
  [
    Type.Object(
      {
        ai_training: Type.Optional(lit(['allow', 'deny'] as const)),
      },
      { additionalProperties: false, description: 'ai_training: whether training crawlers may use the content (default: what robots.txt says today)' },
    ),
    Type.Null(),
  ],
  { $id: 'GenerateFilesRequest' },
);

export const GenerateFilesResponseSchema = Type.Object(
  {
    bundle_id: Type.String(),
    scan_id: Type.String({ format: 'uuid' }),
    options: Type.Object({ ai_training: lit(['allow', 'deny'] as const) }),
    files: Type.Array(
      Type.Object({
        name: Type.String(),
        install_path: Type.String(),
        content_type: Type.String(),
        bytes: Type.Integer(),
        sha256: Type.String(),
        addresses_checks: Type.Array(Type.String()),
        content: Type.String(),
      }),
    ),
    download: Type.Object({
      url: Type.String({ description: 'One download of the ZIP; the token is single use' }),
      token: Type.String(),
      expires_at: Type.String({ format: 'date-time' }),
    }),
  },
  { $id: 'GenerateFilesResponse' },
);

export const scansSchemas = [FindingSchema, ScanSchema, ScanStartResponseSchema, ScanHistorySchema, GenerateFilesBodySchema, GenerateFilesResponseSchema];
