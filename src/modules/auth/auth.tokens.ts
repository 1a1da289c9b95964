import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../../config.js';

/** Owner tokens live a week (GET /api/auth/me renews them); admin tokens half a day. */
export const USER_TOKEN_TTL_SECONDS = 7 * 24 * 3600;
export const ADMIN_TOKEN_TTL_SECONDS = 12 * 3600;

let testSecret: Uint8Array | undefined;

/**
 * The HS256 signing key: JWT_SECRET when set; in tests a random per-process key; otherwise one
 * generated on first start and kept in DATA_DIR/jwt-secret (mode 0600) so tokens survive restarts.
 */
export function loadJwtSecret(config: Pick<Config, 'jwtSecret' | 'nodeEnv' | 'dataDir'>): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  if (config.nodeEnv === 'test') return (testSecret ??= randomBytes(32));
  const file = path.join(config.dataDir, 'jwt-secret');
  fs.mkdirSync(config.dataDir, { recursive: true });
  try {
    // 'wx': the first process to start wins; a concurrent one reads what it wrote.
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new Error(`${file} holds a too short JWT secret: delete it to generate a new one`);
  return new TextEncoder().encode(secret);
}

/**
 * Signs and verifies the bearer JWTs of owners and administrators (HS256, issuer = service name,
 * the session id as jti: a token is only as alive as its session row, which auth.service checks).
 */
export function createTokenSigner(config: Pick<Config, 'jwtSecret' | 'nodeEnv' | 'dataDir' | 'serviceName'>) {
  const secret = loadJwtSecret(config);
  const issuer = config.serviceName;
  return {
    async sign(kind: 'user' | 'admin', subjectId: string, email: string, sessionId: string): Promise<{ token: string; expiresIn: number }> {
      const expiresIn = kind === 'user' ? USER_TOKEN_TTL_SECONDS : ADMIN_TOKEN_TTL_SECONDS;
      const token = await new SignJWT({ kind, email })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(subjectId)
        .setJti(sessionId)
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime(`${expiresIn}s`)
        .sign(secret);
      return { token, expiresIn };
    },
    /** The claims of a token with a valid signature, issuer and expiry; undefined otherwise. */
    async verify(token: string): Promise<JWTPayload | undefined> {
      try {
        return (await jwtVerify(token, secret, { algorithms: ['HS256'], issuer })).payload;
      } catch {
        return undefined;
      }
    },
  };
}
