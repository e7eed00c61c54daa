import { SourceProviderT } from '@notify/contracts';

/**
 * The source templates this service offers: one, a plain HTTP source whose events carry their
 * type in `event` (ADR 0195). Knock's catalogue of third-party providers (their signature schemes
 * and preprocessing scripts) is not reproduced.
 */
export const SOURCE_PROVIDERS: readonly SourceProviderT[] = [
  {
    key: 'http',
    version: '1',
    provider: {
      name: 'HTTP',
      description: 'Events posted as JSON to the source ingest endpoint, authenticated with the source ingest key.',
      categories: ['Infrastructure'],
      website_url: null,
      webhook_docs_url: 'https://github.com/notify/notify#sources',
    },
    default_settings: { event_type_path: 'body.event', enforce_verification: true, idempotency_key_path: 'body.id', timestamp_path: null },
    default_action_mappings: [],
    example_payloads: {
      signup: [{ body: { event: 'signup', id: 'evt_1', user: { id: 'user-1', email: 'user@example.com' } } }],
    },
  },
];
