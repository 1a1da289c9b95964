import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT, projectPath } from './paths.js';
import { migrationsDir } from './db.js';
import { demoFile } from '../modules/companies/companies.seed.js';

describe('project paths', () => {
  // From the compiled dist/src/, CI's scripts/ci/mcp-inspector-check.sh starts the built server and fetches its files.
  it('finds the project folder from src/', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { name: string };
    assert.equal(pkg.name, 'agentpages');
    assert.equal(projectPath('migrations'), path.join(PROJECT_ROOT, 'migrations'));
  });

  it('points the migrations and the demo directory at files that exist', () => {
    assert.equal(migrationsDir, projectPath('migrations'));
    assert.ok(fs.readdirSync(migrationsDir).some((f) => f.endsWith('.sql')));
    assert.ok(fs.statSync(demoFile).size > 0);
  });
});
