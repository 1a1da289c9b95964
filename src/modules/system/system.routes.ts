import { Type } from 'typebox';
import type { App } from '../../platform/http.js';
import { errorResponses } from '../../platform/http.js';
import type { SystemService } from './system.service.js';

/** Health and public configuration (base /api). */
export async function systemRoutes(app: App, { system }: { system: SystemService }): Promise<void> {
  app.get('/health', {
    schema: { operationId: 'health.live', tags: ['system'], summary: 'Liveness: the process answers', response: { 200: Type.Ref('Health') } },
  }, async () => ({ status: 'ok' as const }));

  app.get('/health/deep', {
    schema: {
      operationId: 'health.deep',
      tags: ['system'],
      summary: 'Readiness: database, migrations, embedding model, job queue',
      description: '200 when every check passes, 503 otherwise (same body), so a load balancer can route on the status code.',
      response: { 200: Type.Ref('DeepHealth'), 503: Type.Ref('DeepHealth') },
    },
  }, async (_req, reply) => {
    const health = await system.deepHealth();
    return reply.status(health.status === 'ok' ? 200 : 503).send(health);
  });

  app.get('/public-config', {
    schema: { operationId: 'system.publicConfig', tags: ['system'], summary: 'Non-secret runtime values', response: { 200: Type.Ref('PublicConfig'), ...errorResponses } },
  }, async () => system.publicConfig());
}
