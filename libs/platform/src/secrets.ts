import { Logger as NestLogger } from '@nestjs/common';
import { SECRET_BOX, SecretBox } from '@notify/application';
import { AppConfig } from '@notify/config';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The key that seals secrets in the log: SECRETS_KEY, or one generated once into
 * DATA_DIR/secrets.key (fine for one instance; several instances must share SECRETS_KEY).
 */
export async function loadSecretBox(config: AppConfig): Promise<SecretBox> {
  if (config.SECRETS_KEY) return SecretBox.fromSetting(config.SECRETS_KEY);
  const file = path.join(config.DATA_DIR, 'secrets.key');
  try {
    return SecretBox.fromSetting((await readFile(file, 'utf8')).trim());
  } catch {
    await mkdir(config.DATA_DIR, { recursive: true });
    const key = randomBytes(32).toString('hex');
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    new NestLogger('Secrets').warn(
      `SECRETS_KEY is not set: secrets are sealed with a key generated into ${file}. Set SECRETS_KEY when running more than one instance.`,
    );
    return SecretBox.fromSetting((await readFile(file, 'utf8')).trim());
  }
}

export { SECRET_BOX };
