/**
 * The agent operations of the OpenAPI document, described for the discovery file: each input with its
 * type and bounds, and an example request that is valid as written.
 */
export const AGENT_PREFIX = '/api/v1/agent';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

type Json = Record<string, unknown>;
interface Schema {
  [key: string]: unknown;
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, unknown>;
  security?: Record<string, unknown>[];
}
export interface OpenApiDoc {
  info?: { title?: string; version?: string; description?: string };
  servers?: { url: string }[];
  paths?: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface AgentEndpoint {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  description: string;
  needsKey: boolean;
  params: { name: string; in: string; required: boolean; text: string }[];
  body: { name: string; required: boolean; text: string }[];
  statuses: string[];
  curl: string;
}

function resolve(doc: OpenApiDoc, schema: Schema | undefined): Schema | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) {
    const name = s.$ref.split('/').pop()!;
    s = doc.components?.schemas?.[name];
  }
  return s;
}

function typeLabel(doc: OpenApiDoc, raw: Schema | undefined): string {
  const s = resolve(doc, raw);
  if (!s) return 'any';
  const union = s.anyOf ?? s.oneOf;
  if (union) {
    // Literal unions (TypeBox) arrive as const or as one-value enums (OpenAPI 3.0 style).
    const literal = (u: Schema | undefined) => (u?.const !== undefined ? u.const : u?.enum?.length === 1 ? u.enum[0] : undefined);
    const consts = union.map((u) => literal(resolve(doc, u))).filter((v) => v !== undefined).map(String);
    if (consts.length === union.length) return `one of ${consts.join(', ')}`;
    return union.map((u) => typeLabel(doc, u)).join(' or ');
  }
  if (s.enum) return `one of ${s.enum.map(String).join(', ')}`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === 'array') return `array of ${typeLabel(doc, s.items)}`;
  const t = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'object');
  return s.format ? `${t} (${s.format})` : t;
}

/** "string, 1 to 2000 characters, default 10" from a schema's bounds. */
function describeSchema(doc: OpenApiDoc, raw: Schema | undefined, description?: string): string {
  const s = resolve(doc, raw) ?? {};
  const parts = [typeLabel(doc, raw)];
  const range = (lo: number | undefined, hi: number | undefined, unit: string) => {
    if (lo !== undefined && hi !== undefined) parts.push(`${lo} to ${hi}${unit}`);
    else if (hi !== undefined) parts.push(`at most ${hi}${unit}`);
    else if (lo !== undefined && lo > 0) parts.push(`at least ${lo}${unit}`);
    else if (lo === 0 && unit === '') parts.push('>= 0');
  };
  range(s.minLength, s.maxLength, ' characters');
  range(s.minimum, s.maximum, '');
  range(s.minItems, s.maxItems, ' items');
  if (s.default !== undefined) parts.push(`default ${JSON.stringify(s.default)}`);
  const text = description ?? s.description;
  return `${parts.join(', ')}${text ? `: ${text}` : ''}`;
}

const EXAMPLE_UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

/** A plausible value for a field, so every example request is valid as written. */
function exampleValue(doc: OpenApiDoc, name: string, raw: Schema | undefined): unknown {
  const s = resolve(doc, raw) ?? {};
  const union = s.anyOf ?? s.oneOf;
  if (union?.length) return exampleValue(doc, name, union.find((u) => resolve(doc, u)?.type !== 'null') ?? union[0]);
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  if (s.default !== undefined) return s.default;
  if (s.type === 'array') return [exampleValue(doc, name.replace(/s$/, ''), s.items)];
  if (s.type === 'integer' || s.type === 'number') return s.minimum ?? 1;
  if (s.type === 'boolean') return true;
  if (s.type === 'object') return {};
  if (s.format === 'uuid') return EXAMPLE_UUID;
  if (s.format === 'email') return name.includes('customer') ? 'jane.doe@example.com' : 'agent-owner@example.com';
  const byName: Record<string, string> = {
    q: 'plumber for a leaking boiler in Berlin',
    question: 'Which companies can repair a leaking boiler in Berlin this week?',
    website_url: 'acme.com',
    name: 'My procurement agent',
    customer_name: 'Jane Doe',
    description: 'We need a quote for repairing a leaking boiler in a two-storey house in Berlin, ideally this week.',
    message: 'Thanks! Could you also give a price for an annual maintenance contract?',
    category: 'Technology',
    country: 'Germany',
    city: 'Berlin',
  };
  return byName[name] ?? 'example';
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** One agent operation described for the discovery file: its inputs with their bounds, and a curl example valid as written. */
function describeOperation(doc: OpenApiDoc, baseUrl: string, path: string, method: (typeof METHODS)[number], op: Operation): AgentEndpoint {
  const statuses = Object.keys(op.responses ?? {});
  const needsKey = (op.security ?? []).some((req) => 'ApiKey' in req) || statuses.includes('401');
  const params = (op.parameters ?? [])
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => ({ name: p.name, in: p.in, required: p.in === 'path' || p.required === true, text: describeSchema(doc, p.schema, p.description) }));
  const bodySchema = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
  const required = new Set(bodySchema?.required ?? []);
  const body = Object.entries(bodySchema?.properties ?? {}).map(([name, s]) => ({ name, required: required.has(name), text: describeSchema(doc, s) }));
  return {
    method: method.toUpperCase(),
    path,
    operationId: op.operationId ?? `${method}${path}`,
    summary: op.summary ?? '',
    description: op.description ?? '',
    needsKey,
    params,
    body,
    statuses,
    curl: exampleCurl(doc, baseUrl, path, method, op, needsKey, bodySchema, required),
  };
}

/** The example: path params filled in, required query params plus the first useful optional one, the required body fields. */
function exampleCurl(doc: OpenApiDoc, baseUrl: string, path: string, method: string, op: Operation, needsKey: boolean, bodySchema: Schema | undefined, required: Set<string>): string {
  let url = path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const p = op.parameters?.find((x) => x.name === name && x.in === 'path');
    return encodeURIComponent(String(exampleValue(doc, name, p?.schema)));
  });
  const query = (op.parameters ?? []).filter((p) => p.in === 'query' && (p.required || p.name === 'q' || p.name === 'question'));
  const limit = (op.parameters ?? []).find((p) => p.in === 'query' && p.name === 'limit');
  if (limit) query.push(limit);
  if (query.length) {
    url += `?${query.map((p) => `${p.name}=${encodeURIComponent(String(p.name === 'limit' ? 5 : exampleValue(doc, p.name, p.schema)))}`).join('&')}`;
  }
  const lines = [`curl${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${shellQuote(baseUrl + url)}`];
  if (needsKey) lines.push(`-H 'X-API-Key: <YOUR_API_KEY>'`);
  if (bodySchema?.properties) {
    const example: Json = {};
    for (const [name, s] of Object.entries(bodySchema.properties)) {
      if (required.has(name) || name === 'type') example[name] = exampleValue(doc, name, s);
    }
    // All-optional bodies (partial updates): show one field rather than an empty object.
    const first = Object.entries(bodySchema.properties)[0];
    if (Object.keys(example).length === 0 && first) example[first[0]] = exampleValue(doc, first[0], first[1]);
    lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(example))}`);
  }
  return lines.join(' \\\n    ');
}

export function agentEndpoints(doc: OpenApiDoc, baseUrl: string): AgentEndpoint[] {
  const out: AgentEndpoint[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith(AGENT_PREFIX)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (op) out.push(describeOperation(doc, baseUrl, path, method, op));
    }
  }
  return out;
}

/** The path of the GET operation with this operationId, if the document has one. */
export function pathOf(doc: OpenApiDoc, operationId: string): string | undefined {
  return Object.entries(doc.paths ?? {}).find(([, item]) => item.get?.operationId === operationId)?.[0];
}
