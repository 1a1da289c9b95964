import robotsParserModule from 'robots-parser';

type Robots = { isAllowed(url: string, ua?: string): boolean | undefined };
// CommonJS default export under tsx and tsc alike.
const robotsParser = ((robotsParserModule as unknown as { default?: unknown }).default ?? robotsParserModule) as (url: string, txt: string) => Robots;

/**
 * robots.txt read as RFC 9309 says: a crawler obeys exactly one group, the one naming its
 * product token (else `*`); inside it the longest matching rule wins and Allow wins ties.
 * robots-parser does the matching; this file adds what it does not expose: which groups name
 * which agents, Content-Signal lines, and the verdict per AI crawler. Pure.
 */

/** AI search and user-triggered fetchers: blocking these hides the site from AI answers. */
export const SEARCH_BOTS = ['OAI-SearchBot', 'ChatGPT-User', 'Claude-SearchBot', 'Claude-User', 'PerplexityBot', 'Perplexity-User'] as const;
/** Training crawlers: blocking these is a legitimate policy choice. */
export const TRAINING_BOTS = ['GPTBot', 'ClaudeBot', 'Google-Extended', 'Applebot-Extended', 'CCBot'] as const;
export const AI_BOTS: readonly string[] = [...SEARCH_BOTS, ...TRAINING_BOTS, 'anthropic-ai', 'Bytespider', 'meta-externalagent', 'Amazonbot', 'cohere-ai'];

export interface RobotsGroup {
  agents: string[];
  rules: { type: 'allow' | 'disallow'; path: string }[];
}

export interface ContentSignal {
  line: string;
  values: Record<string, string>;
  valid: boolean;
}

export interface RobotsAnalysis {
  groups: RobotsGroup[];
  /** Directives recognised (user-agent, allow, disallow, sitemap, crawl-delay, content-signal). */
  directives: number;
  sitemaps: string[];
  contentSignals: ContentSignal[];
  /** Per bot: allowed to fetch the home page, and whether its own group (not `*`) decided. */
  bots: Record<string, { allowed: boolean; ownGroup: boolean }>;
  /** AI bots named by some group. */
  namedAiBots: string[];
  isAllowed(path: string, agent: string): boolean;
}

const KNOWN = /^(user-agent|allow|disallow|sitemap|crawl-delay|content-signal|host|clean-param)$/i;

export function analyseRobots(robotsUrl: string, text: string, homePath = '/'): RobotsAnalysis {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  const contentSignals: ContentSignal[] = [];
  let directives = 0;
  let current: RobotsGroup | undefined;
  let lastWasAgent = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    const value = m[2]!.trim();
    if (!KNOWN.test(key)) continue;
    directives++;
    if (key === 'user-agent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(value);
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (key === 'sitemap') sitemaps.push(value);
    else if (key === 'content-signal') contentSignals.push(parseContentSignal(value));
    else if ((key === 'allow' || key === 'disallow') && current) current.rules.push({ type: key, path: value });
  }
  const parser = robotsParser(robotsUrl, text);
  const url = (path: string) => new URL(path, robotsUrl).href;
  const named = (bot: string) => groups.some((g) => g.agents.some((a) => a.toLowerCase() === bot.toLowerCase()));
  const bots: RobotsAnalysis['bots'] = {};
  for (const bot of [...SEARCH_BOTS, ...TRAINING_BOTS]) {
    bots[bot] = { allowed: parser.isAllowed(url(homePath), bot) !== false, ownGroup: named(bot) };
  }
  return {
    groups,
    directives,
    sitemaps,
    contentSignals,
    bots,
    namedAiBots: AI_BOTS.filter(named),
    isAllowed: (path, agent) => parser.isAllowed(url(path), agent) !== false,
  };
}

/** `Content-Signal: search=yes, ai-input=yes, ai-train=no` (keys search, ai-input, ai-train; yes|no). */
export function parseContentSignal(value: string): ContentSignal {
  const values: Record<string, string> = {};
  let valid = value.length > 0;
  for (const part of value.split(',')) {
    const kv = /^\s*([a-z-]+)\s*=\s*([a-z]+)\s*$/i.exec(part);
    if (!kv) {
      valid = false;
      continue;
    }
    const k = kv[1]!.toLowerCase();
    const v = kv[2]!.toLowerCase();
    if (!['search', 'ai-input', 'ai-train'].includes(k) || !['yes', 'no'].includes(v)) valid = false;
    values[k] = v;
  }
  return { line: `Content-Signal: ${value}`, values, valid: valid && Object.keys(values).length > 0 };
}

/** The `*` group's rules as lines (what a named group must restate, since it replaces `*`). */
export function starRules(groups: RobotsGroup[]): { type: 'allow' | 'disallow'; path: string }[] {
  const out: { type: 'allow' | 'disallow'; path: string }[] = [];
  for (const g of groups) if (g.agents.includes('*')) out.push(...g.rules.filter((r) => r.path !== ''));
  return out;
}
