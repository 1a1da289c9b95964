import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, closeTestEmbeddings, type TestContext } from '../test/helpers/index.js';
import { loadConfig } from './config.js';
import { seedDemoIfEmpty } from './modules/companies/companies.seed.js';

/**
 * Keeps README.md true: its API tour runs, in order, against the app and the demo directory; its configuration
 * table names exactly the variables src/config.ts reads; its `npm run` commands and document links exist.
 *
 * The tour's convention (README, "API tour for agents"): every ```bash block under that heading is one command,
 * either `curl -s …` or `NAME=$(curl -s … | jq -r '.path')`, where the path is a plain jq path (`.a.b[0].c`).
 * Lines may continue with a trailing backslash; lines starting with `#` are comments. Words are read as a POSIX
 * shell reads them (single quotes, double quotes with `$NAME` expanded, bare words with `$NAME` expanded), and
 * curl takes -s, -X, -H and -d. A block outside the convention fails the test naming the example.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const TOUR_HEADING = '## API tour for agents';
const ORIGIN = `http://localhost:${loadConfig({}).port}`;

/** The body of one `## ` section of the README, up to the next one. */
function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `README.md has no "${heading}" section`);
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(/^## /m);
  return end < 0 ? rest : rest.slice(0, end);
}

interface Example {
  /** 1-based position in the tour, and its first line, for messages. */
  label: string;
  command: string;
}

function tourExamples(): Example[] {
  const blocks = [...section(TOUR_HEADING).matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)];
  return blocks.map((m, i) => {
    const lines = m[2]!.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
    const label = `README API tour example ${i + 1} (${(lines[0] ?? '').slice(0, 90)})`;
    assert.equal(m[1], 'bash', `${label}: tour blocks are \`\`\`bash blocks, got \`\`\`${m[1]}`);
    assert.equal(lines.length, 1, `${label}: one command per block (continue a long line with a trailing backslash), got ${lines.length}`);
    return { label, command: lines[0]! };
  });
}

type Token = { op: '|' } | { word: string };

/** Splits a command line into words as a POSIX shell would (quotes, escapes, $NAME), and `|`. */
function shellWords(line: string, vars: Map<string, string>, label: string): Token[] {
  const out: Token[] = [];
  let word: string | undefined;
  let i = 0;
  const expand = (): string => {
    const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(line.slice(i));
    assert.ok(m, `${label}: only $NAME and \${NAME} expansions are supported, at "${line.slice(i, i + 20)}"`);
    const name = (m[1] ?? m[2])!;
    const value = vars.get(name);
    assert.ok(value !== undefined, `${label}: $${name} is used before an earlier example captured it (NAME=$(curl … | jq -r …))`);
    i += m[0].length;
    return value;
  };
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      if (word !== undefined) out.push({ word });
      word = undefined;
      i++;
    } else if (c === '|') {
      if (word !== undefined) out.push({ word });
      word = undefined;
      out.push({ op: '|' });
      i++;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      assert.ok(end > i, `${label}: unterminated single quote`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      word ??= '';
      i++;
      while (line[i] !== '"') {
        assert.ok(i < line.length, `${label}: unterminated double quote`);
        if (line[i] === '\\' && '"\\$`'.includes(line[i + 1] ?? '')) {
          word += line[i + 1];
          i += 2;
        } else if (line[i] === '$') {
          word += expand();
        } else {
          assert.ok(line[i] !== '`', `${label}: command substitution inside a command is not supported`);
          word += line[i];
          i++;
        }
      }
      i++;
    } else if (c === '\\') {
      word = (word ?? '') + (line[i + 1] ?? '');
      i += 2;
    } else if (c === '$') {
      assert.ok(line[i + 1] !== '(', `${label}: $( … ) is only supported around the whole command (NAME=$(curl … | jq -r …))`);
      word = (word ?? '') + expand();
    } else {
      // Unquoted, these would start another command, a redirection, a subshell, a glob or a brace expansion.
      assert.ok(!';&<>`(){}*?[]'.includes(c), `${label}: an unquoted "${c}" is not supported: quote it, and keep to one curl command per block`);
      word = (word ?? '') + c;
      i++;
    }
  }
  if (word !== undefined) out.push({ word });
  return out;
}

interface Request {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** curl's arguments, as curl reads the ones the tour may use. */
function curlRequest(words: string[], label: string): Request {
  assert.equal(words[0], 'curl', `${label}: a block is one curl command, got "${words[0]}"`);
  let method: string | undefined;
  let url: string | undefined;
  let silent = false;
  const headers: Record<string, string> = {};
  let payload: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    const value = () => {
      assert.ok(i + 1 < words.length, `${label}: ${w} needs a value`);
      return words[++i]!;
    };
    if (w === '-s' || w === '--silent') silent = true;
    else if (w === '-X' || w === '--request') method = value();
    else if (w === '-H' || w === '--header') {
      const h = value();
      const colon = h.indexOf(':');
      assert.ok(colon > 0, `${label}: header "${h}" is not "Name: value"`);
      headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
    } else if (w === '-d' || w === '--data' || w === '--data-raw') payload = value();
    else if (w.startsWith('-')) assert.fail(`${label}: curl option ${w} is not supported by src/readme.test.ts (use -s, -X, -H, -d)`);
    else {
      assert.equal(url, undefined, `${label}: more than one URL`);
      url = w;
    }
  }
  assert.ok(silent, `${label}: use curl -s (the output is read by the next command or by a person)`);
  assert.ok(url, `${label}: no URL`);
  assert.ok(url.startsWith(`${ORIGIN}/`), `${label}: call the service at its default address ${ORIGIN}, got ${url}`);
  // curl sends -d as a form unless told otherwise, and -d without -X is a POST.
  if (payload !== undefined) headers['content-type'] ??= 'application/x-www-form-urlencoded';
  const parsed = new URL(url);
  return { method: method ?? (payload !== undefined ? 'POST' : 'GET'), url: parsed.pathname + parsed.search, headers, ...(payload !== undefined ? { payload } : {}) };
}

/** `jq -r PATH` for plain paths: `.a`, `.a.b`, `.a[0].b`. */
function jqPath(value: unknown, expr: string, label: string): string {
  assert.match(expr, /^(\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+$/, `${label}: capture with a plain jq path such as .api_key or '.companies[0].id', got ${expr}`);
  let v = value;
  for (const [, key, index] of expr.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) {
    v = v === null || typeof v !== 'object' ? undefined : key !== undefined ? (v as Record<string, unknown>)[key] : (v as unknown[])[Number(index)];
  }
  assert.ok(typeof v === 'string' || typeof v === 'number', `${label}: jq -r ${expr} gives ${JSON.stringify(v) ?? 'null'}, not a value to keep`);
  return String(v);
}

interface Step extends Example {
  capture?: { name: string; path: string };
  words: string[];
}

/** Reads one example: `curl …` or `NAME=$(curl … | jq -r PATH)`, its variables expanded. */
function parseExample(example: Example, vars: Map<string, string>): Step {
  const { label } = example;
  let line = example.command;
  let capture: Step['capture'];
  const assign = /^([A-Za-z_][A-Za-z0-9_]*)=\$\((.*)\)$/.exec(line);
  if (assign) line = assign[2]!;
  const tokens = shellWords(line, vars, label);
  const bar = tokens.findIndex((t) => 'op' in t);
  const words = (bar < 0 ? tokens : tokens.slice(0, bar)).map((t) => (t as { word: string }).word);
  if (assign) {
    const jq = tokens.slice(bar + 1);
    assert.ok(bar >= 0 && jq.length === 3 && jq.every((t) => 'word' in t), `${label}: a capture is NAME=$(curl -s … | jq -r '.path')`);
    const [cmd, flag, expr] = jq.map((t) => (t as { word: string }).word);
    assert.ok(cmd === 'jq' && flag === '-r', `${label}: a capture is NAME=$(curl -s … | jq -r '.path'), got "${cmd} ${flag}"`);
    capture = { name: assign[1]!, path: expr! };
  } else {
    assert.equal(bar, -1, `${label}: pipe into jq only in a capture (NAME=$(curl -s … | jq -r '.path'))`);
  }
  return { ...example, words, ...(capture ? { capture } : {}) };
}

describe('README.md', () => {
  it('stays short: at most 350 lines', () => {
    assert.ok(readme.split('\n').length <= 350, `README.md has ${readme.split('\n').length} lines; move detail to docs/`);
  });

  it('its configuration table names exactly the variables src/config.ts reads', () => {
    const source = fs.readFileSync(path.join(root, 'src/config.ts'), 'utf8');
    const read = new Set([...source.matchAll(/\benv, '([A-Z][A-Z0-9_]*)'|\blookup\('([A-Z][A-Z0-9_]*)'|\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => (m[1] ?? m[2] ?? m[3])!));
    assert.ok(read.size > 50, `found only ${read.size} variables in src/config.ts: has its reading changed?`);
    const table = section('## Configuration').split('\n').filter((l) => l.startsWith('| `'));
    const listed = new Set(table.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!)));
    assert.deepEqual([...read].filter((v) => !listed.has(v)), [], 'variables src/config.ts reads that the README table does not list');
    assert.deepEqual([...listed].filter((v) => !read.has(v)), [], 'variables the README table lists that src/config.ts does not read');
  });

  it('names only npm scripts that package.json has, and links only documents that exist', () => {
    const scripts = Object.keys((JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const used = [...readme.matchAll(/npm run ([a-z][a-z0-9:-]*)/g)].map((m) => m[1]!);
    assert.ok(used.length > 10);
    assert.deepEqual(used.filter((s) => !scripts.includes(s)), [], 'npm run commands in README.md that package.json does not define');
    const links = [...readme.matchAll(/\]\(((?!https?:)[^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    assert.ok(links.length > 5);
    assert.deepEqual(links.filter((l) => !fs.existsSync(path.join(root, l))), [], 'README.md links to missing files');
  });

  describe('API tour, run in order against the demo directory', () => {
    let t: TestContext;
    before(async () => {
      t = await buildTestApp();
      await seedDemoIfEmpty(t.app.services.companies, t.app.log);
    });
    after(async () => {
      await t?.close();
      await closeTestEmbeddings();
    });

    it('every example answers 2xx, captures what later ones use, and ask finds a real match', async () => {
      const examples = tourExamples();
      assert.ok(examples.length >= 15, `the tour has ${examples.length} examples`);
      const vars = new Map<string, string>();
      const ran: { step: Step; request: Request; body: unknown }[] = [];
      for (const example of examples) {
        const step = parseExample(example, vars);
        const request = curlRequest(step.words, step.label);
        const res = await t.app.inject(request);
        assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${step.label} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
        const body: unknown = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
        if (step.capture) vars.set(step.capture.name, jqPath(body, step.capture.path, step.label));
        ran.push({ step, request, body });
      }

      const call = (method: string, pathPrefix: string) => {
        const found = ran.find((r) => r.request.method === method && r.request.url.startsWith(pathPrefix));
        assert.ok(found, `the README tour has no ${method} ${pathPrefix} example`);
        return found;
      };
      // The afternoon's order: register first, deactivate last, the key rotated before that.
      assert.equal(ran[0]!.request.url, '/api/v1/agent/register');
      assert.equal(ran.at(-1)!.request.method, 'DELETE');
      assert.equal(ran.at(-1)!.request.url, '/api/v1/agent/me');
      assert.ok(ran.indexOf(call('POST', '/api/v1/agent/rotate-key')) > ran.indexOf(call('POST', '/api/v1/agent/proposals')));

      // The ask example meets its need with a strong match, names it, and it is the company the tour proposes to.
      const asked = call('POST', '/api/v1/agent/ask');
      const ask = asked.body as { found: boolean; answer: string; companies: { id: string; name: string; relevance: string | null }[] };
      const where = asked.step.label;
      assert.equal(ask.found, true, `${where}: finds no strong match on the demo directory (pick a question it answers): ${ask.answer}`);
      const first = ask.companies[0]!;
      assert.equal(first.relevance, 'strong', `${where}: its first company is ${first.relevance}, not a strong match`);
      assert.ok(ask.answer.includes(first.name), `${where}: the answer does not name ${first.name}: ${ask.answer}`);
      assert.doesNotMatch(ask.answer, /^Nothing in the directory fits/, `${where}: the answer says nothing fits`);
      const proposal = call('POST', '/api/v1/agent/proposals');
      assert.equal((proposal.body as { company_id: string }).company_id, first.id, 'the tour proposes to another company than the one ask recommends');

      // The deactivated agent's key is refused afterwards, as the README says.
      const me = await t.app.inject({ method: 'GET', url: '/api/v1/agent/me', headers: { 'x-api-key': vars.get('KEY')! } });
      assert.equal(me.statusCode, 401);
    });
  });
});
