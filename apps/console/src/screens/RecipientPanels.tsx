import { Accordion, Badge, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useConsole } from '../session';
import { Async, DataTable, Json, time, useLoad } from '../ui';

interface PreferenceLayers {
  tenant: string | null;
  layers: Record<'environment_default' | 'tenant_default' | 'recipient_default' | 'recipient_in_tenant', unknown>;
  merged: unknown;
}

const LAYERS = [
  ['environment_default', 'Environment default'],
  ['tenant_default', "Tenant's default"],
  ['recipient_default', "The user's default set"],
  ['recipient_in_tenant', "The user's set for the tenant"],
] as const;

/**
 * A user's preferences as a send sees them (GET /v1/users/{id}/preference_layers, ADR 0212):
 * merged, then each layer least specific first; a tenant adds its layers.
 */
export function PreferenceLayersPanel({ userId }: { userId: string }) {
  const { api, environment } = useConsole();
  const [tenant, setTenant] = useState('');
  const [applied, setApplied] = useState('');
  const layers = useLoad(
    (signal) =>
      api.secret<PreferenceLayers>(environment, 'GET', `/v1/users/${encodeURIComponent(userId)}/preference_layers`, {
        query: { tenant: applied || undefined },
        signal,
      }),
    [api, environment, userId, applied],
  );
  return (
    <Stack>
      <form
        aria-label="Preferences in a tenant"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(tenant.trim());
        }}
      >
        <TextInput
          label="In the context of tenant"
          description="Empty: no tenant. Press Enter to apply."
          value={tenant}
          onChange={(e) => setTenant(e.currentTarget.value)}
          w={320}
        />
      </form>
      <Async loaded={layers} label="the preference layers">
        {(p) => (
          <Stack>
            <Title order={4} size="h5">
              Merged preferences (what a send decides by){p.tenant ? ` in tenant ${p.tenant}` : ''}
            </Title>
            <Json value={p.merged} label="Merged preferences" maxHeight={400} />
            <Title order={4} size="h5">
              Layers, least specific first
            </Title>
            <Accordion multiple variant="separated" aria-label="Preference layers">
              {LAYERS.map(([key, title], index) => (
                <Accordion.Item key={key} value={key}>
                  <Accordion.Control>
                    <Group gap="xs">
                      <Text size="sm">
                        {index + 1}. {title}
                      </Text>
                      <Badge size="xs" variant="light" color={p.layers[key] ? 'blue' : 'gray'}>
                        {p.layers[key] ? 'set' : 'none'}
                      </Badge>
                    </Group>
                  </Accordion.Control>
                  <Accordion.Panel>
                    {p.layers[key] ? (
                      <Json value={p.layers[key]} label={title} />
                    ) : (
                      <Text c="dimmed">No preference set at this layer.</Text>
                    )}
                  </Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
          </Stack>
        )}
      </Async>
    </Stack>
  );
}

interface Membership {
  audience_key: string;
  kind: 'static' | 'dynamic';
  tenant: string | null;
  added_at: string;
  until: string | null;
}

/** The audiences a user belongs to now, static and dynamic (GET /v1/users/{id}/audiences). */
export function AudiencesPanel({ userId }: { userId: string }) {
  const { api, environment } = useConsole();
  const audiences = useLoad(
    (signal) => api.secret<{ entries: Membership[] }>(environment, 'GET', `/v1/users/${encodeURIComponent(userId)}/audiences`, { signal }),
    [api, environment, userId],
  );
  return (
    <Async loaded={audiences} label="the audiences">
      {(a) => (
        <DataTable
          caption="Audiences"
          rows={a.entries}
          rowKey={(m) => `${m.audience_key}:${m.kind}:${m.tenant ?? ''}`}
          empty="Not in any audience."
          columns={[
            { header: 'Audience', cell: (m) => m.audience_key },
            { header: 'Membership', cell: (m) => (m.kind === 'static' ? 'static (added)' : 'dynamic (matches a segment)') },
            { header: 'Tenant', cell: (m) => m.tenant ?? '—' },
            { header: 'Since', cell: (m) => time(m.added_at) },
            { header: 'Until', cell: (m) => (m.until ? time(m.until) : '—') },
          ]}
        />
      )}
    </Async>
  );
}
