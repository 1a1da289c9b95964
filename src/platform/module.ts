import type { TSchema } from 'typebox';
import type { App } from './http.js';

/**
 * What a domain module exposes to app.ts: the schemas its routes refer to by `$id`, the routes it
 * serves to agents under /api/v1/agent (inside the agent rate limit) and its other routes, each
 * registered with its own prefix. app.ts lists the modules; nothing else registers routes.
 */
export interface HttpModule<S> {
  readonly name: string;
  readonly schemas?: readonly TSchema[];
  /** Routes under /api/v1/agent, registered inside the agent scope (API-key rate limit). */
  agentRoutes?(agent: App, services: S): Promise<void>;
  /** Every other route of the module, with its prefix. */
  routes?(app: App, services: S): Promise<void>;
}
