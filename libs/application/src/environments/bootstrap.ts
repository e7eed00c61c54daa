import { AppConfig } from '@notify/config';
import { BOOTSTRAP_ACTOR, environmentStream } from '@notify/domain';
import { EventStore, START } from '@notify/eventstore';
import { Logger } from '@notify/logging';
import { WrongExpectedRevisionError } from '@notify/eventstore';
import { credentialId, createEnvironment, issueApiKey, issueServiceToken } from './environment-use-cases';
import { ensureFirstRunConfiguration } from './first-run-configuration';

export const BOOTSTRAP_ENVIRONMENT = 'development';
/** Where commits of the bootstrap environment are promoted to; it has no keys until an operator issues some. */
export const PROMOTION_ENVIRONMENT = 'production';
const actor = { environment: null, actor: BOOTSTRAP_ACTOR };

export interface BootstrapResult {
  created: boolean;
  /** Only credentials generated here are returned (and printed); configured ones are known already. */
  generated: { secretKey?: string; publishableKey?: string; serviceToken?: string };
}

/**
 * First start on an empty log: environment `development` with a secret key, a publishable key
 * and a service token, taken from BOOTSTRAP_* or generated. On later starts, configured
 * BOOTSTRAP_* credentials are made sure of (a no-op when they exist).
 */
export async function bootstrap(store: EventStore, config: AppConfig, logger: Logger): Promise<BootstrapResult> {
  const empty = (await store.headPosition()) === START;
  const generated: BootstrapResult['generated'] = {};
  if (empty) {
    await createEnvironment(store, { slug: BOOTSTRAP_ENVIRONMENT, name: 'Development', order: 0 }, actor);
    await createEnvironment(store, { slug: PROMOTION_ENVIRONMENT, name: 'Production', order: 1 }, actor);
  }
  // An in-app feed channel and an active example workflow, so a first trigger works (only where none exist yet).
  if (empty || (await store.readStream(environmentStream(BOOTSTRAP_ENVIRONMENT), { maxCount: 1 })).length) {
    await ensureFirstRunConfiguration(store, BOOTSTRAP_ENVIRONMENT, actor);
  }
  const ensure = async (kind: 'secret' | 'publishable', configured: string | undefined) => {
    if (!configured && !empty) return undefined;
    try {
      const { key, issued } = await issueApiKey(
        store,
        { environment: BOOTSTRAP_ENVIRONMENT, kind, key: configured, keyId: configured ? undefined : credentialId(`bootstrap-${kind}`) },
        actor,
      );
      return issued && !configured ? key : undefined;
    } catch (error) {
      // Another instance bootstrapped at the same moment with its own generated key.
      if (error instanceof WrongExpectedRevisionError || (error as { code?: string }).code === 'api_key_exists') return undefined;
      if ((error as { code?: string }).code === 'environment_missing') {
        logger.warn({ kind }, `BOOTSTRAP_* ${kind} key ignored: environment ${BOOTSTRAP_ENVIRONMENT} does not exist`);
        return undefined;
      }
      throw error;
    }
  };
  generated.secretKey = await ensure('secret', config.BOOTSTRAP_SECRET_KEY);
  generated.publishableKey = await ensure('publishable', config.BOOTSTRAP_PUBLISHABLE_KEY);
  if (config.BOOTSTRAP_SERVICE_TOKEN || empty) {
    const { token, issued } = await issueServiceToken(
      store,
      {
        name: 'bootstrap',
        token: config.BOOTSTRAP_SERVICE_TOKEN,
        tokenId: config.BOOTSTRAP_SERVICE_TOKEN ? undefined : credentialId('bootstrap-service-token'),
      },
      actor,
    );
    if (issued && !config.BOOTSTRAP_SERVICE_TOKEN) generated.serviceToken = token;
  }
  if (Object.values(generated).some(Boolean)) {
    // Printed once: only the hashes are stored, so this is the only time these can be read.
    logger.warn(
      {
        environment: BOOTSTRAP_ENVIRONMENT,
        secret_key: generated.secretKey,
        publishable_key: generated.publishableKey,
        service_token: generated.serviceToken,
      },
      'Generated bootstrap credentials. Save them now: they are stored hashed and will not be shown again.',
    );
  }
  return { created: empty, generated };
}
