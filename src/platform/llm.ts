import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { Config } from '../config.js';
import { AppError } from './errors.js';

/**
 * The language-model provider, built once and shared (AI edit, crawl analysis, ask, widget):
 * an OpenAI-compatible chat-completions client with timeouts, retries with backoff, a token
 * limit, and structured output (response_format json_schema) validated against a TypeBox
 * schema before anything uses it. When LLM_BASE_URL is unset there is no client and callers
 * use their documented deterministic fallback.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LlmClient {
  readonly model: string;
  completeText(req: { messages: ChatMessage[]; maxTokens?: number; temperature?: number }): Promise<string>;
  /** Output parsed as JSON and checked against `schema`; invalid output is one retry, then AppError('unavailable'). */
  completeJson<T extends TSchema>(req: { messages: ChatMessage[]; schema: T; schemaName: string; maxTokens?: number; temperature?: number }): Promise<Static<T>>;
}

export class LlmOutputError extends Error {}

interface CompletionBody {
  choices?: { message?: { content?: string | null } }[];
}

export function createLlm(config: Config['llm']): LlmClient | undefined {
  if (!config.baseUrl) return undefined;
  const endpoint = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  async function call(body: Record<string, unknown>): Promise<string> {
    let lastError: unknown;
    for (let attempt = 0; attempt <= config.maxRetries; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, Math.min(4000, 250 * 2 ** attempt)));
      try {
        const res = await fetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
          body: JSON.stringify({ model: config.model, ...body }),
          signal: AbortSignal.timeout(config.timeoutMs),
        });
        if (res.status === 429 || res.status >= 500) {
          lastError = new Error(`language model answered ${res.status}`);
          continue;
        }
        if (!res.ok) throw new AppError('unavailable', `Language model refused the request (${res.status})`);
        const json = (await res.json()) as CompletionBody;
        const content = json.choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw new LlmOutputError('language model returned no content');
        return content;
      } catch (err) {
        if (err instanceof AppError) throw err;
        lastError = err;
        if (err instanceof LlmOutputError) continue;
      }
    }
    const timedOut = lastError instanceof Error && (lastError.name === 'TimeoutError' || lastError.name === 'AbortError');
    throw new AppError(timedOut ? 'upstream_timeout' : 'unavailable', timedOut ? 'The language model did not answer in time' : 'The language model is unavailable right now', { cause: lastError });
  }

  return {
    model: config.model,
    completeText: ({ messages, maxTokens, temperature }) =>
      call({ messages, max_tokens: Math.min(maxTokens ?? config.maxTokens, config.maxTokens), temperature: temperature ?? 0.2 }),

    async completeJson({ messages, schema, schemaName, maxTokens, temperature }) {
      const body = {
        messages,
        max_tokens: Math.min(maxTokens ?? config.maxTokens, config.maxTokens),
        temperature: temperature ?? 0,
        response_format: { type: 'json_schema', json_schema: { name: schemaName, strict: true, schema } },
      };
      for (let attempt = 0; attempt < 2; attempt++) {
        const content = await call(body);
        let parsed: unknown;
        try {
          parsed = JSON.parse(content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
        } catch {
          continue;
        }
        if (Value.Check(schema, parsed)) return parsed as Static<typeof schema>;
      }
      throw new AppError('unavailable', 'The language model returned output that does not match the expected structure');
    },
  };
}
