import os from 'node:os';
import path from 'node:path';
import { bool, ConfigError, int, oneOf, optional, ports, secretOf, str, url, urlList, type Env } from './config.parse.js';

/** Who takes payments: Stripe, the offline test provider (never in production) or nobody. */
export const PAYMENTS_PROVIDERS = ['stripe', 'local', 'off'] as const;
export type PaymentsProviderName = (typeof PAYMENTS_PROVIDERS)[number];

/**
 * The one typed configuration of the service. It is parsed once, at start, from the
 * environment; a bad value stops the process with a message naming the variable.
 * Nothing else in the codebase reads process.env.
 */
export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  serviceName: string;
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * DATABASE_READ_URL: hot standbys of DATABASE_URL, comma-separated, that searches, public lookups, the change feed
   * and the search index read from (platform/read-pool.ts); empty: everything reads the primary.
   */
  databaseReadUrls: string[];
  /** DATABASE_READ_MAX_LAG_MS: a replica measured further behind the primary than this is not read from. */
  databaseReadMaxLagMs: number;
  /**
   * POSTGRES_FACTS_CACHE: on PostgreSQL, keep what a lookup reads beside a profile (reachability, ratings) in memory
   * while a listening connection hears of every write to it (a few milliseconds behind another instance's commit);
   * off: read it for every request. PGlite always keeps it (exact there).
   */
  postgresFactsCache: boolean;
  seedDemo: boolean;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Trust X-Forwarded-For (only behind a proxy that sets it; otherwise clients could fake their IP). */
  trustProxy: boolean;
  /**
   * HEAP_GROWING_PERCENT: after each full garbage collection the JavaScript heap may grow this much above what stayed
   * alive before the next one (platform/heap.ts); default 30 on both stores; 0 leaves V8's own rule (up to four times,
   * with a high first limit).
   */
  heapGrowingPercent: number;
  /**
   * CACHE_MEMORY_MB: what the answers of recent searches (half), public profiles and search result rows (a quarter each)
   * may take in memory, estimated from their size (lib/bounded-cache.ts); 0 keeps none.
   */
  cacheMemoryMb: number;
  /** Embedding provider: the bundled local model, or an OpenAI-compatible endpoint. */
  embeddings: {
    provider: 'local' | 'openai';
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    dimensions: number;
    cacheSize: number;
    workers: number;
    /** Run the bundled model on the native kernels when they were built (NATIVE_KERNELS; same vectors either way). */
    nativeKernels: boolean;
  };
  /**
   * The in-process vector index (src/modules/search/vector-sync.ts): the semantic side of search
   * answered in memory, PostgreSQL's pgvector index the fallback while it loads or builds.
   */
  vectorIndex: {
    enabled: boolean;
    /** Searches whose filters leave at most this many companies use an exact scan; larger ones the HNSW graph. */
    exactBelow: number;
    /** Threads that build the HNSW graph (default: all cores but one). */
    buildThreads: number;
    /** Exact scans through the native kernel when it was built (NATIVE_KERNELS; same answers either way). */
    nativeKernels: boolean;
    /**
     * VECTOR_INDEX_SNAPSHOT_DIR: where the search index and its HNSW graph are kept between restarts (read and brought up to date
     * on start instead of rebuilt); default DATA_DIR/search-index, `off` for none (tests: none unless set).
     */
    snapshotDir: string | undefined;
    /**
     * VECTOR_INDEX_MAP_SNAPSHOT: read the index's large arrays (rows, postings) in place from the snapshot's file
     * (memory-mapped: the page cache's, shared between instances) instead of into the process's own memory.
     */
    mapSnapshot: boolean;
    /**
     * VECTOR_INDEX_SEARCH_THREADS: worker threads that search the HNSW graph once it is read in place from the snapshot's
     * file (0: the main thread searches). At 1M companies a graph search costs 5–6 ms of CPU, which then leaves the main thread.
     */
    searchThreads: number;
  };
  llm: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string;
    timeoutMs: number;
    maxRetries: number;
    maxTokens: number;
  };
  /** Background job runner (pg-boss) in this process; a separate `npm run worker` may also run them. */
  runJobs: boolean;
  /** Shared, non-secret values a later module adds go below. */
  jwtSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  magicLinkTtlMinutes: number;
  emailCheckMx: boolean;
  redisUrl: string | undefined;
  /** Bearer token that lets a remote Prometheus scrape /metrics (loopback callers need none). */
  metricsToken: string | undefined;
  rateLimit: {
    agentPerMinute: number;
    ipPerMinute: number;
  };
  /**
   * Payments: PAYMENTS_PROVIDER `stripe` (the default when STRIPE_SECRET_KEY is set), `local` (an offline
   * test provider for development and demos: the default outside production, refused under production) or
   * `off` (nothing can be bought: the default in production without a Stripe key). Prices are looked up in
   * Stripe by lookup key; the amounts are those of the local provider and of price previews.
   */
  payments: {
    provider: PaymentsProviderName;
    /** Nothing is really charged: the local provider, or a Stripe test-mode key (sk_test_/rk_test_). */
    testMode: boolean;
    stripeSecretKey: string | undefined;
    /** STRIPE_WEBHOOK_SECRET, comma-separated during rotation (every one is tried). */
    stripeWebhookSecrets: string[];
    /** Another Stripe API host (a test-mode proxy or a local fake): http(s)://host:port. */
    stripeApiBase: string | undefined;
    stripeMaxRetries: number;
    stripeTimeoutMs: number;
    priceLookupKeys: { month: string; year: string };
    proAmounts: { month: number; year: number };
    currency: string;
  };
  crawl: {
    allowPrivate: boolean;
    maxPages: number;
    maxDepth: number;
    userAgent: string;
    allowedPorts: number[];
    /** Politeness: minimum ms between two requests to one host (robots Crawl-delay may raise it). */
    delayMs: number;
    /** Per-request timeout (connect, headers, body), ms. */
    timeoutMs: number;
  };
  /** SHUTDOWN_DRAIN_MS: after SIGTERM, readiness answers 503 and requests are still served this long before the server closes. */
  shutdownDrainMs: number;
  /** Outbound events to agents' endpoints (modules/webhooks). */
  webhooks: {
    /** WEBHOOKS_SECRET_KEY: encrypts the stored signing secrets (AES-256-GCM, key derived by HKDF); generated into DATA_DIR when unset. */
    secretKey: string | undefined;
    /** Allow endpoints on private/loopback addresses (tests and local development only). */
    allowPrivate: boolean;
    /** Endpoints must use https (production); http is accepted elsewhere. */
    requireHttps: boolean;
    /** Ports an endpoint on a public address may use (WEBHOOKS_ALLOWED_PORTS, default the crawler's). */
    allowedPorts: number[];
    /** Delays in seconds before each retry after the first attempt (attempts = 1 + length). */
    retryScheduleSeconds: number[];
    /** Per-attempt timeout (connect, headers, body), ms. */
    timeoutMs: number;
    /** An endpoint is disabled after this many deliveries in a row exhausted every retry. */
    disableAfterExhausted: number;
    /** ... or when every attempt has failed for this long. */
    disableAfterFailingHours: number;
    /** How long the previous secret still signs after a rotation. */
    rotationGraceHours: number;
  };
}

export { ConfigError } from './config.parse.js';

export function loadConfig(env: Env = process.env): Config {
  const nodeEnv = oneOf(env, 'NODE_ENV', 'development', ['development', 'production', 'test'] as const);
  const port = int(env, 'PORT', 8000, 0, 65535);
  // Loopback by default: a fresh `npm start` is reachable only from this machine. Deployments set HOST=0.0.0.0.
  const host = str(env, 'HOST', '127.0.0.1');
  const serviceName = str(env, 'SERVICE_NAME', 'agentpages');
  if (!/^[a-z][a-z0-9-]{1,31}$/.test(serviceName)) {
    throw new ConfigError(`SERVICE_NAME must be a lowercase slug (letters, digits, dashes; 2-32 chars), got "${serviceName}"`);
  }
  const baseUrl = url(env, 'BASE_URL', `http://localhost:${port}`, ['http:', 'https:'])!.replace(/\/+$/, '');
  const embeddingProvider = oneOf(env, 'EMBEDDINGS_PROVIDER', 'local', ['local', 'openai'] as const);
  const embeddingsBaseUrl = url(env, 'EMBEDDINGS_BASE_URL', undefined, ['http:', 'https:']);
  if (embeddingProvider === 'openai' && !embeddingsBaseUrl) {
    throw new ConfigError('EMBEDDINGS_BASE_URL is required when EMBEDDINGS_PROVIDER=openai');
  }
  const databaseUrl = url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']);
  const databaseReadUrls = urlList(env, 'DATABASE_READ_URL', ['postgres:', 'postgresql:']);
  if (databaseReadUrls.length > 0 && !databaseUrl) {
    throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL: read replicas are standbys of a PostgreSQL primary (the embedded store has none)');
  }
  if (databaseReadUrls.includes(databaseUrl ?? '')) throw new ConfigError('DATABASE_READ_URL lists DATABASE_URL itself: name the replicas only (the primary is read from when none can answer)');
  const jwtSecret = optional(env, 'JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters');
  }
  return {
    nodeEnv,
    serviceName,
    port,
    host,
    baseUrl,
    dataDir: path.resolve(str(env, 'DATA_DIR', './data')),
    databaseUrl,
    databaseReadUrls,
    databaseReadMaxLagMs: int(env, 'DATABASE_READ_MAX_LAG_MS', 5000, 100, 600_000),
    postgresFactsCache: bool(env, 'POSTGRES_FACTS_CACHE', true),
    seedDemo: bool(env, 'SEED_DEMO', true),
    logLevel: oneOf(env, 'LOG_LEVEL', 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    trustProxy: bool(env, 'TRUST_PROXY', false),
    heapGrowingPercent: int(env, 'HEAP_GROWING_PERCENT', 30, 0, 1000),
    cacheMemoryMb: int(env, 'CACHE_MEMORY_MB', 32, 0, 65_536),
    embeddings: {
      provider: embeddingProvider,
      baseUrl: embeddingsBaseUrl,
      apiKey: optional(env, 'EMBEDDINGS_API_KEY'),
      model: str(env, 'EMBEDDINGS_MODEL', embeddingProvider === 'local' ? 'use-lite-512' : 'text-embedding-3-small'),
      dimensions: int(env, 'EMBEDDINGS_DIMENSIONS', 512, 512, 512),
      cacheSize: int(env, 'EMBEDDINGS_CACHE_SIZE', 5000, 0, 1_000_000),
      workers: int(env, 'EMBEDDINGS_WORKERS', 1, 1, 16),
      nativeKernels: bool(env, 'NATIVE_KERNELS', true),
    },
    vectorIndex: {
      enabled: bool(env, 'VECTOR_INDEX', true),
      exactBelow: int(env, 'VECTOR_INDEX_EXACT_BELOW', 10_000, 0, 10_000_000),
      buildThreads: int(env, 'VECTOR_INDEX_BUILD_THREADS', Math.max(1, os.availableParallelism() - 1), 1, 64),
      nativeKernels: bool(env, 'NATIVE_KERNELS', true),
      snapshotDir: snapshotDir(env, nodeEnv),
      mapSnapshot: bool(env, 'VECTOR_INDEX_MAP_SNAPSHOT', true),
      searchThreads: int(env, 'VECTOR_INDEX_SEARCH_THREADS', 1, 0, 16),
    },
    llm: {
      baseUrl: url(env, 'LLM_BASE_URL', undefined, ['http:', 'https:']),
      apiKey: optional(env, 'LLM_API_KEY'),
      model: str(env, 'LLM_MODEL', 'gpt-4o-mini'),
      timeoutMs: int(env, 'LLM_TIMEOUT_MS', 30_000, 100, 600_000),
      maxRetries: int(env, 'LLM_MAX_RETRIES', 2, 0, 10),
      maxTokens: int(env, 'LLM_MAX_TOKENS', 1200, 16, 32_000),
    },
    runJobs: bool(env, 'RUN_JOBS', true),
    jwtSecret,
    smtpUrl: url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:']),
    mailFrom: str(env, 'MAIL_FROM', `AgentPages <no-reply@${new URL(baseUrl).hostname}>`),
    adminEmail: optional(env, 'ADMIN_EMAIL'),
    adminPassword: optional(env, 'ADMIN_PASSWORD'),
    magicLinkTtlMinutes: int(env, 'MAGIC_LINK_TTL_MINUTES', 15, 1, 1440),
    emailCheckMx: bool(env, 'EMAIL_CHECK_MX', nodeEnv === 'production'),
    redisUrl: url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']),
    metricsToken: secretOf(env, 'METRICS_TOKEN', 16),
    rateLimit: {
      agentPerMinute: int(env, 'RATE_LIMIT_AGENT_PER_MINUTE', 120, 1, 1_000_000),
      ipPerMinute: int(env, 'RATE_LIMIT_IP_PER_MINUTE', 300, 1, 1_000_000),
    },
    payments: paymentsConfig(env, nodeEnv),
    crawl: {
      allowPrivate: bool(env, 'CRAWL_ALLOW_PRIVATE', false),
      maxPages: int(env, 'CRAWL_MAX_PAGES', 20, 1, 500),
      maxDepth: int(env, 'CRAWL_MAX_DEPTH', 3, 0, 10),
      userAgent: str(env, 'CRAWL_USER_AGENT', `${serviceName}-bot/2.0 (+${baseUrl}/${serviceName}.md)`),
      allowedPorts: ports(env, 'CRAWL_ALLOWED_PORTS', '80,443'),
      delayMs: int(env, 'CRAWL_DELAY_MS', 1000, 0, 60_000),
      timeoutMs: int(env, 'CRAWL_TIMEOUT_MS', 10_000, 100, 120_000),
    },
    shutdownDrainMs: int(env, 'SHUTDOWN_DRAIN_MS', nodeEnv === 'production' ? 5000 : 0, 0, 120_000),
    webhooks: webhooksConfig(env, nodeEnv),
  };
}

function webhooksConfig(env: Env, nodeEnv: Config['nodeEnv']): Config['webhooks'] {
  return {
    secretKey: secretOf(env, 'WEBHOOKS_SECRET_KEY', 32),
    allowPrivate: bool(env, 'WEBHOOKS_ALLOW_PRIVATE', false),
    // The crawler's port rules unless set apart: a delivery log must not probe ports on public hosts.
    allowedPorts: ports(env, 'WEBHOOKS_ALLOWED_PORTS', env.CRAWL_ALLOWED_PORTS || '80,443'),
    requireHttps: bool(env, 'WEBHOOKS_REQUIRE_HTTPS', nodeEnv === 'production'),
    retryScheduleSeconds: str(env, 'WEBHOOKS_RETRY_SCHEDULE', '60,300,1800,7200,21600,43200')
      .split(',')
      .map((p) => {
        const n = Number(p.trim());
        if (!Number.isInteger(n) || n < 1 || n > 7 * 86_400) throw new ConfigError(`WEBHOOKS_RETRY_SCHEDULE has a bad delay "${p}" (whole seconds, 1 to 604800)`);
        return n;
      }),
    timeoutMs: int(env, 'WEBHOOKS_TIMEOUT_MS', 10_000, 100, 60_000),
    disableAfterExhausted: int(env, 'WEBHOOKS_DISABLE_AFTER_EXHAUSTED', 3, 1, 1000),
    disableAfterFailingHours: int(env, 'WEBHOOKS_DISABLE_AFTER_FAILING_HOURS', 24, 1, 720),
    rotationGraceHours: int(env, 'WEBHOOKS_ROTATION_GRACE_HOURS', 24, 0, 720),
  };
}

function paymentsConfig(env: Env, nodeEnv: Config['nodeEnv']): Config['payments'] {
  const stripeSecretKey = optional(env, 'STRIPE_SECRET_KEY');
  if (stripeSecretKey !== undefined && !/^(sk|rk)_(test|live)_[A-Za-z0-9_]{8,}$/.test(stripeSecretKey)) {
    throw new ConfigError('STRIPE_SECRET_KEY must look like sk_test_… or sk_live_… (or a restricted rk_… key), without spaces');
  }
  const stripeWebhookSecrets = (optional(env, 'STRIPE_WEBHOOK_SECRET') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const s of stripeWebhookSecrets) if (!/^whsec_[A-Za-z0-9+/=_-]{8,}$/.test(s)) throw new ConfigError('STRIPE_WEBHOOK_SECRET must be whsec_… values separated by commas');
  if (stripeSecretKey && stripeWebhookSecrets.length === 0) throw new ConfigError('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
  const provider = oneOf(env, 'PAYMENTS_PROVIDER', stripeSecretKey ? 'stripe' : nodeEnv === 'production' ? 'off' : 'local', PAYMENTS_PROVIDERS);
  if (provider === 'stripe' && !stripeSecretKey) throw new ConfigError('PAYMENTS_PROVIDER=stripe needs STRIPE_SECRET_KEY (and STRIPE_WEBHOOK_SECRET)');
  if (provider === 'local' && nodeEnv === 'production') {
    throw new ConfigError('PAYMENTS_PROVIDER=local is a test provider that grants the pro plan without a payment and never runs under NODE_ENV=production: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to sell plans, or PAYMENTS_PROVIDER=off');
  }
  if (provider === 'local' && stripeSecretKey) throw new ConfigError('PAYMENTS_PROVIDER=local and STRIPE_SECRET_KEY are both set: choose one (unset PAYMENTS_PROVIDER to use Stripe)');
  const lookup = (name: string, fallback: string) => {
    const v = str(env, name, fallback);
    if (!/^[A-Za-z0-9_.-]{1,200}$/.test(v)) throw new ConfigError(`${name} must be a Stripe price lookup key (letters, digits, _ . -)`);
    return v;
  };
  const currency = str(env, 'PAYMENTS_CURRENCY', 'eur').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) throw new ConfigError('PAYMENTS_CURRENCY must be a three-letter ISO code such as eur');
  return {
    provider,
    testMode: provider === 'local' || (provider === 'stripe' && /^(sk|rk)_test_/.test(stripeSecretKey ?? '')),
    stripeSecretKey,
    stripeWebhookSecrets,
    stripeApiBase: url(env, 'STRIPE_API_BASE', undefined, ['http:', 'https:']),
    stripeMaxRetries: int(env, 'STRIPE_MAX_NETWORK_RETRIES', 1, 0, 5),
    stripeTimeoutMs: int(env, 'STRIPE_TIMEOUT_MS', 10_000, 100, 80_000),
    priceLookupKeys: { month: lookup('STRIPE_PRICE_LOOKUP_PRO_MONTH', 'agentpages_pro_month'), year: lookup('STRIPE_PRICE_LOOKUP_PRO_YEAR', 'agentpages_pro_year') },
    proAmounts: { month: int(env, 'PRO_PRICE_MONTH', 1900, 0, 10_000_000), year: int(env, 'PRO_PRICE_YEAR', 19_000, 0, 100_000_000) },
    currency,
  };
}

/** For entry points (server, worker, scripts): a bad value prints one clear line and exits 1. */
export function loadConfigOrExit(env: Env = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Configuration error: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

/** A config for tests: defaults plus overrides, never the process environment. */
function snapshotDir(env: Env, nodeEnv: Config['nodeEnv']): string | undefined {
  const value = optional(env, 'VECTOR_INDEX_SNAPSHOT_DIR');
  if (value === 'off') return undefined;
  if (value !== undefined) return path.resolve(value);
  return nodeEnv === 'test' ? undefined : path.join(path.resolve(str(env, 'DATA_DIR', './data')), 'search-index');
}

export function testConfig(overrides: Partial<Config> = {}, env: Env = {}): Config {
  // Tests read back what they just wrote through other connections: no notification delay on PostgreSQL
  // (the listening cache has its own test, platform/cache-generation.test.ts).
  return { ...loadConfig({ NODE_ENV: 'test', SEED_DEMO: 'false', LOG_LEVEL: 'silent', RUN_JOBS: 'false', POSTGRES_FACTS_CACHE: 'false', ...env }), ...overrides };
}
