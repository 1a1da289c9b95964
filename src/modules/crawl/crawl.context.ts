import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { emailMayClaimWebsite } from '../../lib/email-domain.js';
import type { Resolver } from '../../lib/ssrf.js';
import type { BearerPrincipal } from '../../platform/auth.js';
import type { EmbeddingProvider } from '../../platform/embeddings/embeddings.js';
import { AppError, invalid } from '../../platform/errors.js';
import type { Jobs } from '../../platform/jobs.js';
import type { LlmClient } from '../../platform/llm.js';
import type { CompaniesService } from '../companies/companies.service.js';
import type { Analyser } from './crawl.analyse.js';
import type { CrawlEvent, Engine } from './crawl.engine.js';
import type { CrawlRepo } from './crawl.repo.js';
import type { HeldFieldsRepo } from './held-fields.repo.js';
import type { WebsiteChecksRepo } from './website-checks.repo.js';

/** What every verb group of the crawl service shares: its dependencies, the engine, and the rules on who may crawl what. */
export interface CrawlServiceDeps {
  repo: CrawlRepo;
  /** Monthly website checks and the suggestions crawls leave for owners. */
  checks: WebsiteChecksRepo;
  /** Crawled values below their publish threshold, waiting for an owner or an administrator (issue 40). */
  held: HeldFieldsRepo;
  companies: CompaniesService;
  embeddings: EmbeddingProvider;
  llm?: LlmClient | undefined;
  jobs: Jobs;
  config: Pick<Config, 'crawl' | 'baseUrl'>;
  log: FastifyBaseLogger;
  /** Company ownership (the ownership module). */
  ownership: {
    owns: (userId: string, companyId: string) => Promise<boolean>;
    claim?: (userId: string, companyId: string) => Promise<void>;
  };
  /** Mails the company's owners (the monthly website check says when it found something to decide). */
  notifyOwners?: (companyId: string, mail: { subject: string; text: string }) => Promise<void>;
  /** DNS for the fetcher (tests make fixture names resolve to 127.0.0.1). */
  resolver?: Resolver;
  /** Politeness between two requests to one host, ms (default 1000; robots Crawl-delay may raise it). */
  delayMs?: number;
  timeoutMs?: number;
  /** The whole crawl of one site stops fetching after this long (ms). */
  budgetMs?: number;
}

export interface CrawlRunOptions {
  maxPages: number;
  maxDepth: number;
  adaptiveRetry: boolean;
  /**
   * What the crawl leaves for the owner to decide: `changes`, the monthly website check, writes no value
   * and proposes what differs (and the site's pictures); `photos`, a crawl the owner asked for, writes the
   * profile as usual and proposes the site's pictures. Without it nothing is proposed.
   */
  suggest?: 'changes' | 'photos';
}

export interface CrawlCtx {
  deps: CrawlServiceDeps;
  engine: Engine;
  analyser: Analyser;
  delayMs: number;
}

/** A problem of the site (unreachable, refused, empty), as opposed to an internal error. */
export class CrawlFailure extends Error {
  constructor(
    readonly kind: string,
    message: string,
    readonly pagesFetched = 0,
    readonly strategies: string[] = [],
  ) {
    super(message);
  }
}

/** The caller's limits (a request's options, or those stored on a job), capped by the configured ones. */
export function runOptions(ctx: CrawlCtx, limits: { max_pages?: number | undefined; max_depth?: number | undefined } | undefined, adaptiveRetry: boolean): CrawlRunOptions {
  const { crawl } = ctx.deps.config;
  return {
    maxPages: Math.min(limits?.max_pages ?? crawl.maxPages, crawl.maxPages),
    maxDepth: Math.min(limits?.max_depth ?? crawl.maxDepth, crawl.maxDepth),
    adaptiveRetry,
  };
}

/** Owners crawl sites whose domain their email proves (as for a magic link) or companies they own; admins anything. */
export async function authorize(ctx: CrawlCtx, principal: BearerPrincipal, domain: string): Promise<void> {
  if (principal.kind === 'admin') return;
  if (emailMayClaimWebsite(principal.email, domain)) return;
  const existing = await ctx.deps.companies.getByWebsite(domain).catch(() => undefined);
  if (existing && (await ctx.deps.ownership.owns(principal.userId, existing.id))) return;
  throw new AppError('forbidden', `You can crawl only your own company's website: sign in with an address at ${domain}, or verify ownership first (POST /api/auth/magic-link with purpose verify)`);
}

export async function ensureNotRunning(ctx: CrawlCtx, domain: string, exceptId?: number): Promise<void> {
  const active = await ctx.deps.repo.findActiveByDomain(domain);
  if (active && active.id !== exceptId) throw new AppError('conflict', `A crawl of ${domain} is already ${active.status} (job ${active.id}): follow it at GET /api/crawl/${active.id}`);
}

/** The owner who crawled their own site becomes its owner; a failure here never fails the crawl. */
export async function claimOwnership(ctx: CrawlCtx, userId: string, companyId: string, event: (e: CrawlEvent) => void = () => {}) {
  const { ownership, log } = ctx.deps;
  if (!ownership.claim) return;
  try {
    if (await ownership.owns(userId, companyId)) return;
    await ownership.claim(userId, companyId);
    event({ at: new Date().toISOString(), stage: 'save', message: 'requesting user recorded as owner' });
  } catch (err) {
    log.warn({ err, companyId }, 'could not record the crawling user as owner');
  }
}

export function failureToAppError(err: unknown, jobId?: number): unknown {
  if (!(err instanceof CrawlFailure)) return err;
  const suffix = jobId ? ` (job ${jobId})` : '';
  if (['unsafe', 'port', 'bad_url'].includes(err.kind)) return invalid(['body', 'url'], `This address cannot be crawled: ${err.message}`, undefined, 'url_refused');
  if (err.kind === 'timeout') return new AppError('upstream_timeout', `${err.message}${suffix}`);
  if (err.kind === 'network') return new AppError('unavailable', `${err.message}${suffix}`);
  return new AppError('bad_request', `${err.message}${suffix}`);
}
