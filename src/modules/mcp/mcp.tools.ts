import { z } from 'zod';
import { DATE_TIME_RULE, isStorableDateTime } from '../../lib/time.js';
import { API_KEY_REFUSALS, type AgentPrincipal, type ApiKeyVerifier } from '../../platform/auth.js';
import { AppError } from '../../platform/errors.js';
import { IdempotencyHeaders } from '../../platform/http.js';

/**
 * One MCP tool, defined once and served by both protocol generations: the SDK's McpServer
 * (2025-11-25 and earlier) and our stateless 2026-07-28 handler read the same definition.
 */
export interface ToolDef {
  name: string;
  title: string;
  description: string;
  /** Zod object (what the SDK validates with); often built from the REST route's TypeBox schema. */
  input: z.ZodObject;
  /** The tool acts for an agent and needs the X-API-Key header. */
  needsKey: boolean;
  readOnly: boolean;
  /**
   * JSON Schema of the structured result (tools/list `outputSchema`), usually the REST response schema
   * inlined (mcp.outputs.ts). Every tool of this service declares one.
   */
  output: Record<string, unknown>;
  /** The text content: a compact summary of the result (the data itself is the structured content, not repeated). */
  summary: (data: Record<string, unknown>) => string;
  run: (args: Record<string, unknown>, ctx: ToolCallContext) => Promise<Record<string, unknown>>;
}

export interface ToolCallContext {
  /** The calling agent; set only for tools with needsKey after the key was verified. */
  agent?: AgentPrincipal;
  /** Lines a tool adds after its summary (an idempotent replay says so). */
  notes: string[];
}

/** An MCP server: identity, guidance and its tools. */
export interface McpEndpoint {
  name: string;
  title: string;
  version: string;
  instructions: string;
  tools: ToolDef[];
}

export interface CallToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A TypeBox schema (plain JSON Schema) as a Zod object, so a tool validates with exactly the
 * bounds of the REST route it mirrors and the two never drift.
 */
export function zodFromTypeBox(schema: unknown): z.ZodObject {
  const json = JSON.parse(JSON.stringify(schema)) as { properties?: Record<string, unknown> };
  const converted = z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]);
  if (!(converted instanceof z.ZodObject)) throw new Error('tool input schema must be an object schema');
  // Zod's date-time, like ajv-formats', accepts what PostgreSQL refuses (offsets of ±16:00 and more, the year
  // 0000): the REST routes' stricter rule (platform/input-bounds.ts) applies to the tool's arguments too.
  const dateTimes = Object.entries(json.properties ?? {}).filter(([, property]) => hasDateTimeFormat(property));
  if (dateTimes.length === 0) return converted;
  const shape = converted.shape as Record<string, z.ZodType>;
  return converted.extend(Object.fromEntries(dateTimes.map(([key]) => [key, shape[key]!.refine((v) => typeof v !== 'string' || isStorableDateTime(v), DATE_TIME_RULE)])));
}

/** Whether a JSON Schema is a date-time string, alone or as a branch of a union (nullable). */
function hasDateTimeFormat(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const s = schema as { format?: unknown; anyOf?: unknown[]; oneOf?: unknown[] };
  return s.format === 'date-time' || [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(hasDateTimeFormat);
}

/** The note a replayed create adds to its text. */
export const REPLAYED = 'Replayed: this idempotency_key was already used with these arguments; this is the first result and nothing new was created.';

/**
 * A create's arguments plus idempotency_key: the REST Idempotency-Key header of the same operation, with its bounds
 * (1 to 255 printable ASCII characters) and its rules (kept 24 hours per agent; the same key with other arguments is refused).
 */
export function withIdempotencyKey(input: z.ZodObject): z.ZodObject {
  const header = zodFromTypeBox(IdempotencyHeaders).shape['idempotency-key'] as z.ZodType;
  return input.extend({
    idempotency_key: header.describe(
      'Makes a retry safe: a call with the same key and arguments returns the first result and creates nothing new (kept 24 hours); the same key with other arguments is an error. ' +
        'The REST API\'s Idempotency-Key header, shared with it.',
    ),
  });
}

/** Merges several TypeBox object schemas (path params + query, say) into one tool input. */
export function zodFromTypeBoxes(...schemas: unknown[]): z.ZodObject {
  return schemas.map(zodFromTypeBox).reduce((acc, s) => acc.extend(s.shape));
}

export function toolResult(data: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: data };
}

export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

export function registerHint(baseUrl: string): string {
  return (
    `This tool needs an agent API key. Register once (free) with the register_agent tool, or ` +
    `curl -X POST ${baseUrl}/api/v1/agent/register -H 'Content-Type: application/json' -d '{"name":"My agent","owner_email":"you@example.com"}' ` +
    `and send the returned api_key in the X-API-Key header of your MCP connection (the response's usage.mcp_config is ready to paste).`
  );
}

/** Where a failed argument sits, FastAPI-style ("limit: Too big: expected number to be <=20"). */
function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`).join('; ');
}

/** A summary that fails never turns a done action (a proposal sent) into an error: the compact JSON stands in. */
function summarize(tool: ToolDef, data: Record<string, unknown>): string {
  try {
    return tool.summary(data);
  } catch {
    return JSON.stringify(data);
  }
}

export interface ToolRunnerDeps {
  baseUrl: string;
  /** Read at call time: the agents module assigns verifiers.apiKey after the app is built. */
  verifyKey: () => ApiKeyVerifier;
  log: { error: (obj: unknown, msg: string) => void };
}

/**
 * Runs one tool for one request: checks the key when needed, validates arguments (a bound
 * violation is a tool error the model can correct, not a protocol error), maps AppErrors to
 * readable tool errors and hides internals of unexpected ones.
 */
export async function runTool(tool: ToolDef, rawArgs: unknown, apiKey: string | undefined, deps: ToolRunnerDeps): Promise<CallToolResult> {
  const ctx: ToolCallContext = { notes: [] };
  if (tool.needsKey) {
    if (!apiKey) return toolError(`Missing API key. ${registerHint(deps.baseUrl)}`);
    const verified = await deps.verifyKey()(apiKey.trim());
    if (!verified.ok) {
      const why = `${API_KEY_REFUSALS[verified.reason]}.`;
      return toolError(`${why} ${registerHint(deps.baseUrl)}`);
    }
    ctx.agent = verified.agent;
  }
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (!parsed.success) return toolError(`Invalid arguments for ${tool.name}: ${describeZodError(parsed.error)}`);
  try {
    const data = await tool.run(parsed.data as Record<string, unknown>, ctx);
    return toolResult(data, [summarize(tool, data), ...ctx.notes].filter(Boolean).join('\n'));
  } catch (err) {
    if (err instanceof AppError && err.status < 500) {
      const detail = err.issues?.length ? err.issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ') : err.message;
      return toolError(`${err.status} ${err.code}: ${detail}`);
    }
    if (err instanceof AppError && err.code === 'unavailable') return toolError(`Temporarily unavailable: ${err.message}. Retry with exponential backoff.`);
    deps.log.error({ err, tool: tool.name }, 'mcp tool failed');
    return toolError('Internal error while running the tool; retry with exponential backoff.');
  }
}
