import { Anchor, Code, Stack, Text, Title } from '@mantine/core';
import { entriesOf } from '../api';
import { href } from '../router';
import { useConsole } from '../session';
import { Async, DataTable, Json, time, useLoad } from '../ui';

interface Channel {
  id: string;
  key: string;
  name: string;
  type: string;
  provider: string;
  updated_at: string;
  environment_settings?: Record<string, unknown>;
}

interface ApiKey {
  id: string;
  kind: string;
  name: string | null;
  hint: string;
  status: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

interface Environment {
  slug: string;
  name: string;
  order?: number;
  owner?: string;
  last_commit_at?: string | null;
  updated_at?: string;
}

/** Channels (the service masks secret settings as ********), the environment's API keys and the environments. */
export function SettingsScreen() {
  const { api, environment } = useConsole();
  const keys = useLoad(
    (signal) => api.service<{ entries: ApiKey[] }>('GET', '/v1/api_keys', { query: { environment }, signal }),
    [api, environment],
  );
  const channels = useLoad(
    (signal) =>
      api.service<{ entries: Channel[] }>('GET', '/v1/channels', { query: { limit: 100, include: ['environment_settings'] }, signal }),
    [api],
  );
  const environments = useLoad((signal) => api.service<{ entries: Environment[] }>('GET', '/v1/environments', { signal }), [api]);
  const whoami = useLoad((signal) => api.service<Record<string, unknown>>('GET', '/v1/whoami', { signal }), [api]);
  return (
    <Stack>
      <Title order={2}>Settings</Title>
      <Title order={3} size="h4">
        Channels
      </Title>
      <Text size="sm" c="dimmed">
        Secret provider and channel settings are shown as <Code>********</Code>; the service never answers them.
      </Text>
      <Async loaded={channels} label="channels">
        {(page) => (
          <DataTable
            caption="Channels"
            rows={entriesOf(page)}
            rowKey={(c) => c.id}
            columns={[
              { header: 'Key', cell: (c) => <Code>{c.key}</Code> },
              { header: 'Name', cell: (c) => c.name },
              { header: 'Type', cell: (c) => c.type },
              { header: 'Provider', cell: (c) => c.provider },
              { header: 'Settings per environment', cell: (c) => <Json value={c.environment_settings ?? {}} maxHeight={200} /> },
              { header: 'Updated', cell: (c) => time(c.updated_at) },
              { header: 'Events', cell: (c) => <Anchor href={href('events', undefined, { stream: `channel-${c.key}` })}>stream</Anchor> },
            ]}
          />
        )}
      </Async>
      <Title order={3} size="h4">
        API keys of {environment}
      </Title>
      <Text size="sm" c="dimmed">
        Only a hint of each secret is kept; <Code>notify keys</Code> and the management API create, rotate and revoke them.
      </Text>
      <Async loaded={keys} label="API keys">
        {(page) => (
          <DataTable
            caption="API keys"
            rows={entriesOf(page)}
            rowKey={(k) => k.id}
            columns={[
              { header: 'Kind', cell: (k) => k.kind },
              { header: 'Name', cell: (k) => k.name ?? '—' },
              { header: 'Secret ends in', cell: (k) => <Code>{k.hint}</Code> },
              { header: 'Status', cell: (k) => k.status },
              { header: 'Created', cell: (k) => time(k.created_at) },
              { header: 'Last used', cell: (k) => time(k.last_used_at) },
              { header: 'Expires', cell: (k) => time(k.expires_at ?? k.revoked_at) },
            ]}
          />
        )}
      </Async>
      <Title order={3} size="h4">
        Environments
      </Title>
      <Async loaded={environments} label="environments">
        {(page) => (
          <DataTable
            caption="Environments"
            rows={entriesOf(page)}
            rowKey={(e) => e.slug}
            columns={[
              { header: 'Slug', cell: (e) => <Code>{e.slug}</Code> },
              { header: 'Name', cell: (e) => e.name },
              { header: 'Owner', cell: (e) => e.owner ?? '—' },
              { header: 'Last commit', cell: (e) => time(e.last_commit_at) },
              { header: 'Updated', cell: (e) => time(e.updated_at) },
              {
                header: 'Events',
                cell: (e) => <Anchor href={href('events', undefined, { stream: `environment-${e.slug}` })}>stream</Anchor>,
              },
            ]}
          />
        )}
      </Async>
      <Title order={3} size="h4">
        Account and token
      </Title>
      <Async loaded={whoami} label="the account">
        {(w) => <Json value={w} label="whoami" />}
      </Async>
    </Stack>
  );
}
