import type { ScanCompany } from './scans.context.js';
import type { CheckResult } from './scans.types.js';

/** The shapes of the agent files bundle (scans.files.ts builds it, scans.files-docs.ts writes its prose). */
export interface BundleOptions {
  /** Allow training crawlers (GPTBot, ClaudeBot, ...)? Default: keep what robots.txt says today. */
  ai_training?: 'allow' | 'deny';
}

export interface BundleInput {
  company: ScanCompany & { profile_url: string };
  scan: { id: string; url: string; rubric_version: string; finished_at: string; score: number | null; grade: string | null; results: CheckResult[] };
  options: BundleOptions;
  baseUrl: string;
  serviceName: string;
  /** Pages the latest crawl fetched (verified 2xx then): url and title. */
  pages: { url: string; title: string }[];
}

export interface BundleFile {
  name: string;
  install_path: string;
  content_type: string;
  content: string;
  addresses_checks: string[];
}
