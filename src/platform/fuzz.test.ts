import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { registerAgent } from '../modules/agents/agents.test-helpers.js';
import { companyFixture, seedCompanies, signInAdmin, signInOwner, useTestApp } from '../test/helpers.js';

/**
 * Property-based requests generated from each operation's own OpenAPI schemas (issue 20): valid
 * and invalid parameters and bodies, with every kind of credential. Whatever is sent, the answer
 * is never a 5xx, its status is one the operation documents, and its body has the documented
 * shape (errors: `detail`). A bounded number of runs per operation keeps it to about a minute.
 */
type Schema = Record<string, unknown>;
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: Schema };
type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 16);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Statuses any operation may answer whatever it documents: the transport's own limits and the rate limiter. */
const TRANSPORT_STATUSES = new Set([413, 414, 415, 429, 431]);
/**
 * Operations whose side effects reach outside the process (a crawl fetches websites) or replace
 * the whole store (restore): covered by their own tests.
 */
const SKIPPED = /^(crawl\.|scans\.(create|rescan))/;

const NASTY_STRINGS = ['', '\u0000', 'a\u0000b', ' ', 'x'.repeat(5000), '水'.repeat(300), '<script>alert(1)</script>', "'; DROP TABLE companies; --", '../../etc/passwd', '%00', '1e21', '-1', 'null', '{}'];
const NASTY_NUMBERS = [-1, 0, 2 ** 63, 1e21, -(2 ** 31), 0.5, Number.MAX_SAFE_INTEGER];

describe('fuzz: every operation, generated from the OpenAPI document', () => {
  const t = useTestApp();
  let doc: Doc;
  const ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
  addFormats.default(ajv);
  const credentials: Record<string, Record<string, string> | undefined> = { none: {}, owner: undefined, admin: undefined, agent: undefined };
  const ids: Record<string, string[]> = {};

  let agentCount = 0;
  /**
   * Operations may legitimately revoke the credential they were called with (sign-out, key
   * rotation, account deletion): before each operation, a revoked credential is replaced.
   */
  async function freshCredentials(): Promise<void> {
    const alive = async (url: string, headers: Record<string, string> | undefined) =>
      Boolean(headers) && (await t.app.inject({ method: 'GET', url, headers })).statusCode === 200;
    if (!(await alive('/api/auth/me', credentials.owner))) {
      const owner = await signInOwner(t, 'owner@fuzz-owner.example.com', 'https://fuzz-owner.example.com');
      credentials.owner = { authorization: `Bearer ${owner.token}` };
      if (owner.companyId) ids.tool_id = [owner.companyId];
    }
    if (!(await alive('/api/admin/me', credentials.admin))) credentials.admin = { authorization: `Bearer ${await signInAdmin(t)}` };
    if (!(await alive('/api/v1/agent/me', credentials.agent))) {
      const agent = await registerAgent(t.app, `Fuzz agent ${++agentCount}`, `fuzz-agent-${agentCount}@example.com`);
      credentials.agent = { 'x-api-key': agent.key };
      ids.agent_id = [agent.id];
    }
  }

  before(async () => {
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const [companyId] = await seedCompanies(t.app, [companyFixture({ website_url: 'https://fuzz-owner.example.com' })]);
    ids.tool_id = [companyId!];
    ids.company_id = [companyId!];
    credentials.malformed = { authorization: 'Bearer not.a.token', 'x-api-key': 'agp_live_not-a-key' };
    await freshCredentials();
  });

  const deref = (schema: Schema | undefined): Schema => {
    let s = schema ?? {};
    for (let i = 0; i < 5 && typeof s.$ref === 'string'; i++) s = doc.components?.schemas?.[(s.$ref as string).split('/').pop()!] ?? {};
    return s;
  };

  /** A value that satisfies the schema (as far as a generator cheaply can). */
  function valid(schemaIn: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
    const s = deref(schemaIn);
    if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...(s.enum as unknown[]));
    if ('const' in s) return fc.constant(s.const);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = s[key] as Schema[] | undefined;
      if (branches?.length) return fc.oneof(...branches.map((b) => valid(b, depth + 1)));
    }
    const type = Array.isArray(s.type) ? (s.type as string[]).find((x) => x !== 'null') : (s.type as string | undefined);
    switch (type) {
      case 'integer':
      case 'number': {
        const min = typeof s.minimum === 'number' ? s.minimum : 0;
        const max = typeof s.maximum === 'number' ? s.maximum : min + 1000;
        return type === 'integer' ? fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) }) : fc.double({ min, max, noNaN: true });
      }
      case 'boolean':
        return fc.boolean();
      case 'array': {
        const maxLength = Math.min(typeof s.maxItems === 'number' ? s.maxItems : 3, 3);
        const minLength = Math.min(typeof s.minItems === 'number' ? s.minItems : 0, maxLength);
        return depth > 3 ? fc.constant([]) : fc.array(valid(s.items as Schema, depth + 1), { minLength, maxLength });
      }
      case 'object': {
        const props = (s.properties ?? {}) as Record<string, Schema>;
        const required = new Set((s.required as string[] | undefined) ?? []);
        if (depth > 3) return fc.constant({});
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, p] of Object.entries(props)) record[name] = valid(p, depth + 1);
        return fc.record(record, { requiredKeys: [...required].filter((k) => k in record) });
      }
      default: {
        const format = s.format as string | undefined;
        if (format === 'uuid') return fc.oneof(fc.uuid(), fc.constant(randomUUID()));
        if (format === 'email') return fc.emailAddress();
        if (format === 'uri' || format === 'url') return fc.constantFrom('https://example.com', 'https://fuzz-owner.example.com/about', 'http://127.0.0.1:1/');
        if (format === 'date-time') return fc.constantFrom(new Date().toISOString(), '2020-01-01T00:00:00Z');
        const maxLength = Math.min(typeof s.maxLength === 'number' ? s.maxLength : 40, 40);
        const minLength = Math.min(typeof s.minLength === 'number' ? s.minLength : 0, maxLength);
        if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= minLength && v.length <= (s.maxLength as number ?? 1e9));
        return fc.string({ minLength, maxLength });
      }
    }
  }

  /** A value that is probably wrong for the schema: another type, out of bounds, control characters, huge. */
  const invalid = (): fc.Arbitrary<unknown> =>
    fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.constantFrom(...NASTY_NUMBERS), fc.constantFrom(null, true, [], {}, [1, 'a'], { nested: { deep: [null] } }), fc.string({ maxLength: 20 }));

  const either = (schema: Schema | undefined) => fc.oneof({ arbitrary: valid(schema), weight: 3 }, { arbitrary: invalid(), weight: 1 });

  /** The credential the operation asks for (an administrator's on /admin paths), so most requests get past the guard. */
  function fittingCredential(path: string, op: Operation): string {
    const scheme = Object.keys(op.security?.[0] ?? {})[0];
    if (scheme === 'ApiKey') return 'agent';
    if (!scheme) return 'none';
    return /\/admin(\/|$)/.test(path) ? 'admin' : 'owner';
  }

  function requestArbitrary(path: string, op: Operation) {
    const params = op.parameters ?? [];
    const pathParams: Record<string, fc.Arbitrary<unknown>> = {};
    const query: Record<string, fc.Arbitrary<unknown>> = {};
    for (const p of params) {
      if (p.in === 'path') pathParams[p.name] = fc.oneof({ arbitrary: fc.constantFrom(...(ids[p.name] ?? [randomUUID()])), weight: 2 }, { arbitrary: either(p.schema), weight: 1 });
      if (p.in === 'query') query[p.name] = either(p.schema);
    }
    const bodySchema = op.requestBody?.content?.['application/json']?.schema;
    return fc.record({
      credential: fc.oneof({ arbitrary: fc.constant(fittingCredential(path, op)), weight: 3 }, { arbitrary: fc.constantFrom(...Object.keys(credentials)), weight: 1 }),
      pathParams: fc.record(pathParams),
      query: fc.record(query, { requiredKeys: [] }),
      body: bodySchema ? fc.oneof({ arbitrary: valid(bodySchema), weight: 3 }, { arbitrary: invalid(), weight: 1 }) : fc.constant(undefined),
    }).map((r) => ({
      ...r,
      url:
        path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(r.pathParams[name] ?? 'x').slice(0, 120)) || 'x') +
        (Object.keys(r.query).length ? `?${new URLSearchParams(Object.entries(r.query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()}` : ''),
    }));
  }

  const validators = new Map<string, ValidateFunction>();
  function validatorFor(key: string, schema: Schema): ValidateFunction {
    let v = validators.get(key);
    if (!v) {
      v = ajv.compile(schema);
      validators.set(key, v);
    }
    return v;
  }

  it('never answers 5xx, and answers only documented statuses in their documented shapes', async () => {
    const failures: string[] = [];
    let requests = 0;
    const statuses: Record<string, Record<number, number>> = {};
    const baseSeed = Number(process.env.FUZZ_SEED ?? 20261122);
    let operationIndex = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op || SKIPPED.test(op.operationId ?? '')) continue;
        // One seed per operation: the same seed everywhere would draw the same credentials for every operation.
        const seed = baseSeed + operationIndex++;
        await freshCredentials();
        const documented = op.responses ?? {};
        await fc.assert(
          fc.asyncProperty(requestArbitrary(path, op), async (req) => {
            requests++;
            statuses[req.credential] ??= {};
            const res = await t.app.inject({
              method: method.toUpperCase() as 'GET',
              url: req.url,
              headers: { ...credentials[req.credential], ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}) },
              ...(req.body !== undefined ? { payload: JSON.stringify(req.body) } : {}),
            });
            statuses[req.credential]![res.statusCode] = (statuses[req.credential]![res.statusCode] ?? 0) + 1;
            const where = `${method.toUpperCase()} ${path} (${op.operationId}) as ${req.credential}: ${res.statusCode} for ${req.url.slice(0, 120)} ${JSON.stringify(req.body)?.slice(0, 120) ?? ''} → ${res.body.slice(0, 160)}`;
            if (res.statusCode >= 500) {
              failures.push(`5xx ${where}`);
              return;
            }
            const status = String(res.statusCode);
            if (!(status in documented) && !('default' in documented) && !TRANSPORT_STATUSES.has(res.statusCode)) {
              failures.push(`undocumented ${where}`);
              return;
            }
            const contentType = String(res.headers['content-type'] ?? '');
            if (!contentType.includes('json') || res.statusCode === 204) return;
            const body = res.json();
            if (res.statusCode >= 400) {
              if (!('detail' in body) && !('jsonrpc' in body)) failures.push(`no detail ${where}`);
              return;
            }
            const schema = documented[status]?.content?.['application/json']?.schema;
            if (schema) {
              const check = validatorFor(`${op.operationId}:${status}`, schema);
              if (!check(body)) failures.push(`shape ${where}: ${ajv.errorsText(check.errors)}`);
            }
          }),
          { numRuns: RUNS_PER_OPERATION, seed, endOnFailure: true },
        );
      }
    }
    // What was exercised, for the log: statuses per credential kind.
    console.log(`fuzz: ${requests} requests (seed ${baseSeed})`, JSON.stringify(statuses));
    assert.ok(requests >= 400, `only ${requests} requests were generated`);
    assert.deepEqual(failures.slice(0, 25), [], `${failures.length} failures`);
  });
});
