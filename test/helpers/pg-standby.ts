import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/lib/free-port.js';

/**
 * A small PostgreSQL primary and a hot standby of it on this machine, for the read-replica test: the primary is a
 * fresh cluster (initdb into a scratch folder, so the copy is small and the machine's own server is left as it is),
 * the standby `pg_basebackup -R` of it, each on its own free port. PostgreSQL's server programs refuse to run as root:
 * under root they run as the `postgres` OS user, who owns the scratch folder.
 */
export interface PgPair {
  primaryUrl: string;
  standbyUrl: string;
  /** Runs SQL on the standby (pause or resume replay). */
  standby: (sql: string) => Promise<unknown[]>;
  stopStandby: () => void;
  /** Stops both servers and removes the folder; safe to call twice. */
  destroy: () => void;
}

/** The folder of initdb, pg_ctl and pg_basebackup (PG_BINDIR, else the newest under /usr/lib/postgresql), or why not. */
export function pgServerPrograms(): { bin: string } | { missing: string } {
  const candidates = process.env.PG_BINDIR ? [process.env.PG_BINDIR] : listVersions().map((v) => `/usr/lib/postgresql/${v}/bin`);
  const bin = candidates.find((dir) => ['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'].every((p) => fs.existsSync(path.join(dir, p))));
  if (!bin) return { missing: 'PostgreSQL server programs (initdb, pg_ctl, pg_basebackup) not found under /usr/lib/postgresql/*/bin or PG_BINDIR' };
  const share = spawnSync(path.join(bin, 'pg_config'), ['--sharedir'], { encoding: 'utf8' }).stdout?.trim();
  if (share && !fs.existsSync(path.join(share, 'extension', 'vector.control'))) return { missing: 'pgvector is not installed for this PostgreSQL (bash scripts/ops/setup-pgvector.sh)' };
  if (process.getuid?.() === 0 && spawnSync('id', ['-u', 'postgres']).status !== 0) return { missing: 'running as root and there is no postgres OS user to run the servers as' };
  return { bin };
}

function listVersions(): string[] {
  try {
    return fs.readdirSync('/usr/lib/postgresql').filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

export async function startPgPair(bin: string): Promise<PgPair> {
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agp-replica-'));
  if (asRoot) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
    fs.chownSync(dir, id('-u'), id('-g'));
  }
  const run = (program: string, args: string[]) => {
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args]] : [path.join(bin, program), args];
    const r = spawnSync(cmd, argv, { encoding: 'utf8', cwd: dir, timeout: 120_000 });
    if (r.status !== 0) throw new Error(`${program} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  const primaryDir = path.join(dir, 'primary');
  const standbyDir = path.join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  // Sockets in the scratch folder, TCP on loopback only; no fsync: a test cluster need not survive a power cut.
  const options = (port: number) => `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c full_page_writes=off -c shared_buffers=32MB -c max_wal_senders=4 -c hot_standby_feedback=on`;
  const started: string[] = [];
  const stop = (data: string) => {
    if (!started.includes(data)) return;
    started.splice(started.indexOf(data), 1);
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // already stopped
    }
  };
  const destroy = () => {
    process.off('exit', destroy);
    for (const data of [...started]) stop(data);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // A test process that ends without its after hooks (a failed before, an uncaught error) still stops the servers.
  process.once('exit', destroy);
  try {
    // initdb's own pg_hba.conf trusts local and loopback connections, replication included.
    run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
    run('pg_ctl', ['-D', primaryDir, '-o', options(primaryPort), '-l', path.join(dir, 'primary.log'), '-w', 'start']);
    started.push(primaryDir);
    const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/postgres`;
    const admin = new pg.Client({ connectionString: primaryUrl });
    await admin.connect();
    await admin.query('CREATE EXTENSION IF NOT EXISTS vector; CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await admin.end();
    run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
    run('pg_ctl', ['-D', standbyDir, '-o', options(standbyPort), '-l', path.join(dir, 'standby.log'), '-w', 'start']);
    started.push(standbyDir);
    const standbyUrl = `postgres://postgres@127.0.0.1:${standbyPort}/postgres`;
    return {
      primaryUrl,
      standbyUrl,
      standby: async (sql) => {
        const c = new pg.Client({ connectionString: standbyUrl });
        await c.connect();
        try {
          return (await c.query(sql)).rows;
        } finally {
          await c.end();
        }
      },
      stopStandby: () => stop(standbyDir),
      destroy,
    };
  } catch (err) {
    destroy();
    throw err;
  }
}
