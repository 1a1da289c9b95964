import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../../../test/helpers/index.js';

describe('OpenAPI: logo upload', () => {
  const t = useTestApp();

  it('describes POST /api/tools/{tool_id}/logo as multipart/form-data with a binary file field', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(res.statusCode, 200);
    const op = res.json().paths['/api/tools/{tool_id}/logo'].post;
    assert.equal(op.operationId, 'tools.uploadLogo');
    const content = op.requestBody.content;
    assert.deepEqual(Object.keys(content), ['multipart/form-data']);
    const schema = content['multipart/form-data'].schema;
    assert.equal(schema.type, 'object');
    assert.deepEqual(schema.required, ['file']);
    assert.equal(schema.properties.file.type, 'string');
    assert.equal(schema.properties.file.format, 'binary');
  });
});
