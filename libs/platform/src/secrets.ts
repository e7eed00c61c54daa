import { Logger as NestLogger } from '@nestjs/common';
import { SECRET_BOX, SecretBox } from '@notify/application';
import { AppConfig } from '@notify/config';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A 32-byte key as a setting holds it: 64 hex characters or base64. */
export function keyFromSetting(value: string): Buffer {
  return /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
}

/**
 * The setting's value, or a key generated once into DATA_DIR/<file> (fine for one instance;
 * several instances must share the setting). Concurrent first starts agree on the first file written.
 */
async function settingOrGeneratedKey(
  config: AppConfig,
  setting: 'SECRETS_KEY' | 'ERASURE_MASTER_KEY',
  file: string,
  what: string,
): Promise<string> {
  const value = config[setting];
  if (value) return value;
  const full = path.join(config.DATA_DIR, file);
  try {
    return (await readFile(full, 'utf8')).trim();
  } catch {
    await mkdir(config.DATA_DIR, { recursive: true });
    await writeFile(full, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    new NestLogger('Secrets').warn(
      `${setting} is not set: ${what} are sealed with a key generated into ${full}. Set ${setting} when running more than one instance.`,
    );
    return (await readFile(full, 'utf8')).trim();
  }
}

/** The key that seals secrets in the log: SECRETS_KEY, or one generated once into DATA_DIR/secrets.key. */
export async function loadSecretBox(config: AppConfig): Promise<SecretBox> {
  return SecretBox.fromSetting(await settingOrGeneratedKey(config, 'SECRETS_KEY', 'secrets.key', 'secrets'));
}

/** The master key wrapping per-subject erasure keys (ADR 0180): ERASURE_MASTER_KEY, or one generated once into DATA_DIR/erasure.key. */
export async function loadErasureMasterKey(config: AppConfig): Promise<Buffer> {
  return keyFromSetting(await settingOrGeneratedKey(config, 'ERASURE_MASTER_KEY', 'erasure.key', 'personal-data keys'));
}

export { SECRET_BOX };
