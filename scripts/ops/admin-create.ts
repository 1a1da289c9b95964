/**
 * `npm run admin:create -- --email admin@example.com`: creates an administrator, or resets the
 * password of an existing one (and signs its sessions out). The password is read from the
 * terminal (not echoed) or from stdin (`--password-stdin`), or ADMIN_PASSWORD; never from the
 * command line, where other users could see it in the process list.
 */
import readline from 'node:readline';
import Fastify from 'fastify';
import { ConfigError, loadConfig } from '../../src/config.js';
import { AppError } from '../../src/platform/errors.js';
import { createServices } from '../../src/services.js';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function readPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin || !process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // Echo nothing while the password is typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
    if (s.includes('Password')) process.stdout.write(s);
  };
  const password = await new Promise<string>((resolve) => rl.question('Password: ', resolve));
  rl.close();
  process.stdout.write('\n');
  return password;
}

try {
  const config = loadConfig();
  const email = arg('email') ?? config.adminEmail;
  if (!email) throw new Error('usage: npm run admin:create -- --email admin@example.com [--password-stdin]');
  const password = config.adminPassword && !process.argv.includes('--password-stdin') ? config.adminPassword : await readPassword(process.argv.includes('--password-stdin'));
  const core = await createServices({ ...config, runJobs: false }, Fastify({ logger: { level: 'warn' } }).log);
  try {
    const { created } = await core.services.auth.ensureAdmin(email, password, { overwrite: true });
    console.log(created ? `administrator ${email} created` : `administrator ${email} existed: password reset, its sessions signed out`);
  } finally {
    await core.close();
  }
} catch (err) {
  console.error(err instanceof ConfigError ? `Configuration error: ${err.message}` : err instanceof AppError || err instanceof Error ? err.message : err);
  process.exit(1);
}
