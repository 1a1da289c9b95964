/**
 * The vocabulary of a scan: check groups, statuses, severities, evidence, fixes and the stored
 * result of one check. Shared by the checks, the scoring function, the service and the files.
 */
export const GROUPS = ['access', 'discovery', 'understanding', 'interfaces'] as const;
export type Group = (typeof GROUPS)[number];

/** pass | warn | fail count; na (does not apply) and error (could not verify) never lower the score. */
export const STATUSES = ['pass', 'warn', 'fail', 'na', 'error'] as const;
export type CheckStatus = (typeof STATUSES)[number];

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** What we saw: one HTTP exchange (or a note about one), never more than a short excerpt of the body. */
export interface Evidence {
  url: string;
  final_url?: string;
  http_status?: number | null;
  content_type?: string;
  bytes?: number;
  elapsed_ms?: number;
  excerpt?: string;
  note?: string;
}

/** A concrete fix: what to do, how, and which file of the agent files bundle does it. */
export interface Fix {
  summary: string;
  steps?: string[];
  snippet?: string;
  bundle_file?: string;
}

/** One check's stored result. `facts` carry the values the scoring caps and the files generator read. */
export interface CheckResult {
  id: string;
  key: string;
  group: Group;
  title: string;
  severity: Severity;
  status: CheckStatus;
  message: string;
  evidence: Evidence[];
  fix: Fix | null;
  spec_url: string | null;
  facts?: Record<string, unknown>;
}

/** What a check returns; the runner adds the definition's id, group, title and severity. */
export interface CheckOutcome {
  status: CheckStatus;
  message: string;
  evidence?: Evidence[];
  fix?: Fix | null;
  facts?: Record<string, unknown>;
}

/** A check definition: stable id (never reused for another meaning), key, group, severity. */
export interface CheckDef<C> {
  id: string;
  key: string;
  group: Group;
  title: string;
  severity: Severity;
  spec_url?: string;
  run: (ctx: C) => Promise<CheckOutcome>;
}

export type FailureReason = 'dns' | 'tls' | 'timeout' | 'unreachable' | 'blocked' | 'invalid_url' | 'private_address' | 'rate_limited' | 'internal';
