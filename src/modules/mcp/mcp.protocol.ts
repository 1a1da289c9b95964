import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { runTool, type McpEndpoint, type ToolRunnerDeps } from './mcp.tools.js';

/**
 * The stateless 2026-07-28 revision of MCP over Streamable HTTP, which SDK 1.32 does not speak:
 * no initialize, every request carries its version and capabilities in `_meta`, the
 * `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers mirror the body and must match it,
 * `server/discover` describes the server, every result carries `resultType`.
 * Older revisions (initialize handshake) are served by the SDK (see mcp.routes.ts).
 */
export const MODERN_VERSION = '2026-07-28';
export const LEGACY_VERSIONS: readonly string[] = SDK_VERSIONS;
export const ALL_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  HEADER_MISMATCH: -32020,
  UNSUPPORTED_PROTOCOL_VERSION: -32022,
} as const;

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
/** Tool lists change only with a deploy; clients may cache them this long. */
const LIST_TTL_MS = 5 * 60_000;

export interface HttpAnswer {
  status: number;
  body?: unknown;
}

type Headers = Record<string, string | string[] | undefined>;
type RequestId = string | number;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** `=?base64?...?=` values (non-ASCII names) are decoded before comparing with the body. */
export function decodeHeaderValue(value: string): string {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(value);
  return m ? Buffer.from(m[1]!, 'base64').toString('utf8') : value;
}

export function rpcError(id: RequestId | null, code: number, message: string, data?: unknown) {
  return { jsonrpc: '2.0' as const, id, error: data === undefined ? { code, message } : { code, message, data } };
}

/**
 * Which generation a POST speaks. The header decides; a request without it is legacy
 * (clients before 2025-06-18 sent none) unless its `_meta` already names a version, in which
 * case it is a modern request that forgot the header and gets the modern HeaderMismatch error.
 */
export function isModernRequest(headers: Headers, body: unknown): boolean {
  const version = header(headers, 'mcp-protocol-version');
  if (version !== undefined) return !LEGACY_VERSIONS.includes(version);
  const params = (body as { params?: { _meta?: Record<string, unknown> } } | undefined)?.params;
  return typeof params?._meta?.[META_VERSION] === 'string';
}

const RequestShape = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number().int()]).optional(),
  method: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
});

export interface ModernContext extends ToolRunnerDeps {
  endpoint: McpEndpoint;
  apiKey: string | undefined;
}

/** Answers one 2026-07-28 POST body. Pure apart from running the tool. */
export async function handleModern(headers: Headers, body: unknown, ctx: ModernContext): Promise<HttpAnswer> {
  const rawId = (body as { id?: unknown } | null)?.id;
  const echoId: RequestId | null = typeof rawId === 'string' || typeof rawId === 'number' ? rawId : null;
  const parsed = RequestShape.safeParse(body);
  if (!parsed.success || Array.isArray(body)) {
    return { status: 400, body: rpcError(echoId, JSONRPC.INVALID_REQUEST, 'Invalid Request: send one JSON-RPC 2.0 request object per POST (no batches, no responses)') };
  }
  const req = parsed.data;

  const version = header(headers, 'mcp-protocol-version');
  if (version === undefined) {
    return { status: 400, body: rpcError(echoId, JSONRPC.HEADER_MISMATCH, 'Header mismatch: the MCP-Protocol-Version header is required') };
  }
  if (version !== MODERN_VERSION) {
    return { status: 400, body: rpcError(echoId, JSONRPC.UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version', { supported: [...ALL_VERSIONS], requested: version }) };
  }
  // A notification: this revision defines none on HTTP (nor headers for one); accept and ignore it.
  if (req.id === undefined) return { status: 202 };
  const id = req.id;

  const method = header(headers, 'mcp-method');
  if (method === undefined) {
    return { status: 400, body: rpcError(echoId, JSONRPC.HEADER_MISMATCH, 'Header mismatch: the Mcp-Method header is required') };
  }
  if (method !== req.method) {
    return { status: 400, body: rpcError(echoId, JSONRPC.HEADER_MISMATCH, `Header mismatch: Mcp-Method header value '${method}' does not match body value '${req.method}'`) };
  }
  const meta = (req.params?._meta ?? {}) as Record<string, unknown>;
  if (meta[META_VERSION] !== version) {
    return {
      status: 400,
      body: rpcError(echoId, JSONRPC.HEADER_MISMATCH, `Header mismatch: MCP-Protocol-Version header value '${version}' does not match params._meta["${META_VERSION}"] (${JSON.stringify(meta[META_VERSION] ?? null)})`),
    };
  }
  if (['tools/call', 'resources/read', 'prompts/get'].includes(req.method)) {
    const nameHeader = header(headers, 'mcp-name');
    const bodyName = req.params?.name ?? req.params?.uri;
    if (nameHeader === undefined) {
      return { status: 400, body: rpcError(echoId, JSONRPC.HEADER_MISMATCH, `Header mismatch: the Mcp-Name header is required for ${req.method}`) };
    }
    if (decodeHeaderValue(nameHeader) !== bodyName) {
      return { status: 400, body: rpcError(echoId, JSONRPC.HEADER_MISMATCH, `Header mismatch: Mcp-Name header value '${nameHeader}' does not match body value '${String(bodyName)}'`) };
    }
  }

  const serverInfo = { name: ctx.endpoint.name, title: ctx.endpoint.title, version: ctx.endpoint.version };
  const ok = (result: Record<string, unknown>): HttpAnswer => ({
    status: 200,
    body: { jsonrpc: '2.0', id, result: { resultType: 'complete', ...result, _meta: { [META_SERVER_INFO]: serverInfo } } },
  });

  switch (req.method) {
    case 'server/discover':
      return ok({
        supportedVersions: [...ALL_VERSIONS],
        capabilities: { tools: {} },
        instructions: ctx.endpoint.instructions,
        ttlMs: LIST_TTL_MS,
        cacheScope: 'public',
      });
    case 'tools/list':
      // One page holds every tool; the list does not depend on the caller.
      return ok({ tools: ctx.endpoint.tools.map(describeTool), ttlMs: LIST_TTL_MS, cacheScope: 'public' });
    case 'tools/call': {
      const name = req.params?.name;
      const tool = ctx.endpoint.tools.find((t) => t.name === name);
      if (!tool) return { status: 200, body: rpcError(id, JSONRPC.INVALID_PARAMS, `Unknown tool: ${String(name)}`) };
      const args = req.params?.arguments;
      if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
        return { status: 200, body: rpcError(id, JSONRPC.INVALID_PARAMS, 'Invalid params: arguments must be an object') };
      }
      return ok(await runTool(tool, args ?? {}, ctx.apiKey, ctx));
    }
    default:
      return {
        status: 404,
        body: rpcError(id, JSONRPC.METHOD_NOT_FOUND, `Method not found: ${req.method}${req.method === 'initialize' ? ` (revision ${MODERN_VERSION} has no initialize; older revisions ${LEGACY_VERSIONS.join(', ')} send it without MCP-Protocol-Version ${MODERN_VERSION})` : ''}`),
      };
  }
}

/** The tools/list entry of a tool: JSON Schema 2020-12 of its input, the same the SDK would send. */
export function describeTool(tool: McpEndpoint['tools'][number]) {
  const { $schema: _drop, ...inputSchema } = z.toJSONSchema(tool.input, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema,
    outputSchema: tool.output,
    annotations: { title: tool.title, readOnlyHint: tool.readOnly, openWorldHint: false, ...(tool.readOnly ? {} : { destructiveHint: false }) },
  };
}
