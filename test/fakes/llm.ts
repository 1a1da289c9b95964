import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local server that speaks OpenAI chat-completions for tests. `respond` decides the reply to
 * each request: a string is the assistant content, { status } an HTTP error, { delayMs } a slow
 * answer (to test timeouts). Every request body is recorded in `requests`.
 */
export interface FakeLlmRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: { type: string; json_schema?: { name: string; schema: unknown } };
  max_tokens?: number;
}

export type FakeReply = string | { status: number } | { delayMs: number; content: string };

export interface FakeLlm {
  baseUrl: string;
  requests: FakeLlmRequest[];
  respond: (req: FakeLlmRequest) => FakeReply;
  close: () => Promise<void>;
}

export async function startFakeLlm(respond: (req: FakeLlmRequest) => FakeReply = () => 'ok'): Promise<FakeLlm> {
  const fake: FakeLlm = { baseUrl: '', requests: [], respond, close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw) as FakeLlmRequest;
      fake.requests.push(body);
      const reply = fake.respond(body);
      const send = (content: string) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${fake.requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      if (typeof reply === 'string') send(reply);
      else if ('status' in reply) res.writeHead(reply.status, { 'content-type': 'application/json' }).end('{"error":{"message":"fake error"}}');
      else setTimeout(() => send(reply.content), reply.delayMs).unref();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
