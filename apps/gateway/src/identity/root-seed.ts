import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { IdentityDeps } from './identity.deps';
import { requestOrigin } from '@gl/service-kit';
import { PRODUCER } from './identity.deps';
import type { UsersService } from './users.service';

export const ROOT_TOKEN_FILE = 'root-token';
const ROOT_SCOPES = ['api', 'read_api', 'read_user', 'sudo'];

/**
 * From the first start there is a root administrator (id 1, username `root`). Its token is
 * GITLAB_ROOT_TOKEN when set; otherwise one is generated, printed once and written to DATA_DIR/root-token
 * (mode 600) so later starts and the test harness can read it.
 */
export async function seedRoot(
  deps: IdentityDeps,
  users: UsersService,
  options: { rootToken?: string; dataDir: string; logger: Logger },
): Promise<{ tokenFile: string | null }> {
  const existing = await deps.stores.users.findById(1);
  if (!existing) {
    await deps.counters.ensureAtLeast('users', 1);
    await users.create(
      { id: 1, username: 'root', name: 'Administrator', email: 'admin@example.com', isAdmin: true },
      requestOrigin(PRODUCER, null),
      null,
    );
    options.logger.info('created root administrator (id 1)');
  }
  if (options.rootToken) {
    await users.ensureToken(1, options.rootToken, {
      name: 'root-token',
      scopes: ROOT_SCOPES,
      expiresAt: null,
    });
    return { tokenFile: null };
  }
  const tokenFile = join(options.dataDir, ROOT_TOKEN_FILE);
  if (existsSync(tokenFile)) {
    const token = readFileSync(tokenFile, 'utf8').trim();
    await users.ensureToken(1, token, { name: 'root-token', scopes: ROOT_SCOPES, expiresAt: null });
    return { tokenFile };
  }
  const { token } = await users.createToken(1, { name: 'root-token', scopes: ROOT_SCOPES, expiresAt: null });
  mkdirSync(options.dataDir, { recursive: true });
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  process.stdout.write(
    `\nRoot personal access token (shown once, also saved to ${tokenFile}):\n  ${token}\n\n`,
  );
  return { tokenFile };
}
