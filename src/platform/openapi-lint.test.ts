import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { useTestApp } from '../test/helpers.js';

/** The published OpenAPI document passes Redocly's recommended rules with no error and no warning (issue 20). */
describe('OpenAPI document (Redocly recommended rules)', () => {
  // As deployed: the document's server is the public base URL (the linter flags localhost).
  const t = useTestApp({ baseUrl: 'https://directory.agentpages.dev' });

  it('has no error and no warning', async () => {
    const source = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).body;
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const lines = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
    assert.deepEqual(lines, []);
  });
});
