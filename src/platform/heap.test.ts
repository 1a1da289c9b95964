import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { MALLOC_SETTINGS, mallocSettingsNotice, runsOnGlibc } from './heap.js';
import { projectPath } from './paths.js';

const scripts = (JSON.parse(fs.readFileSync(projectPath('package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** What a package script's environment prefix gives a process it starts, through the same shell npm uses. */
function envOf(script: string, env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const prefix = script.replace(/node dist\/src\/\w+\.js$/, '');
  assert.notEqual(prefix, script, `the script starts the compiled process: ${script}`);
  const names = Object.keys(MALLOC_SETTINGS);
  const out = execFileSync('sh', ['-c', `${prefix}node -e 'process.stdout.write(JSON.stringify(Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, process.env[n]]))))'`], { env, encoding: 'utf8' });
  return JSON.parse(out) as Record<string, string | undefined>;
}

describe('malloc settings', () => {
  const withoutThem = Object.fromEntries(Object.entries(process.env).filter(([name]) => !(name in MALLOC_SETTINGS)));

  for (const name of ['start', 'worker']) {
    it(`npm run ${name} starts the process with them, and an operator's own values win`, () => {
      assert.deepEqual(envOf(scripts[name]!, withoutThem), MALLOC_SETTINGS);
      assert.deepEqual(envOf(scripts[name]!, { ...withoutThem, MALLOC_ARENA_MAX: '4' }), { ...MALLOC_SETTINGS, MALLOC_ARENA_MAX: '4' });
    });
  }

  it('names the missing ones in the start log on glibc, and nothing when they are set or there is no glibc', () => {
    const notice = mallocSettingsNotice({ MALLOC_ARENA_MAX: '8' }, () => true);
    assert.match(notice ?? '', /started without MALLOC_MMAP_THRESHOLD_=131072 in the environment/);
    assert.doesNotMatch(notice ?? '', /MALLOC_ARENA_MAX/);
    assert.equal(mallocSettingsNotice({ ...MALLOC_SETTINGS }, () => assert.fail('not asked when nothing is missing')), undefined);
    assert.equal(mallocSettingsNotice({}, () => false), undefined);
  });

  it('tells glibc from other C libraries as ldd does', () => {
    const ldd = spawnSync('ldd', ['--version'], { encoding: 'utf8' });
    assert.equal(runsOnGlibc(), /GLIBC|GNU libc/i.test(`${ldd.stdout ?? ''}`));
  });
});
