import { Anchor, Button, Group, SegmentedControl, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { ApiError, entriesOf, Page } from '../api';
import { EventList, LogPage } from '../events';
import { PagedList, useFilteredList } from '../list';
import { href, navigate } from '../router';
import { useConsole } from '../session';
import { Async, DataTable, Json, time, useLoad } from '../ui';
import { AudiencesPanel, PreferenceLayersPanel } from './RecipientPanels';
import { Message, MessageTable, useChannels } from './Messages';
import { StreamHistory } from './Workflows';

interface User {
  id: string;
  name?: string | null;
  email?: string | null;
  created_at?: string | null;
  updated_at: string;
  [key: string]: unknown;
}

type Kind = 'user' | 'object' | 'tenant';

/** A user (`#/recipients/ada`), an object (`#/recipients?object=projects/p1`) or a tenant (`#/recipients?tenant=acme`). */
export function RecipientsScreen({ id, params }: { id?: string; params: URLSearchParams }) {
  const object = params.get('object');
  const tenant = params.get('tenant');
  const slash = object?.indexOf('/') ?? -1;
  const kind: Kind = id ? 'user' : object ? 'object' : tenant ? 'tenant' : 'user';
  return (
    <Stack>
      <Title order={2}>Recipients</Title>
      <FindRecipient
        key={`${kind}:${id ?? object ?? tenant ?? ''}`}
        initial={{
          kind,
          id: id ?? tenant ?? (object && slash > 0 ? object.slice(slash + 1) : ''),
          collection: object && slash > 0 ? object.slice(0, slash) : '',
        }}
      />
      {id ? (
        <RecipientDetail
          key={`u:${id}`}
          kind="user"
          label={`user ${id}`}
          base={`/v1/users/${encodeURIComponent(id)}`}
          historyOf={`/v1/events/users/${encodeURIComponent(id)}`}
          id={id}
        />
      ) : object && slash > 0 ? (
        <RecipientDetail
          key={`o:${object}`}
          kind="object"
          label={`object ${object}`}
          base={`/v1/objects/${encodeURIComponent(object.slice(0, slash))}/${encodeURIComponent(object.slice(slash + 1))}`}
          historyOf={`/v1/events/objects/${encodeURIComponent(object.slice(0, slash))}/${encodeURIComponent(object.slice(slash + 1))}`}
          id={object}
        />
      ) : tenant ? (
        <TenantDetail key={`t:${tenant}`} tenantId={tenant} />
      ) : (
        <UserList />
      )}
    </Stack>
  );
}

function FindRecipient({ initial }: { initial: { kind: Kind; id: string; collection: string } }) {
  const [kind, setKind] = useState<Kind>(initial.kind);
  const [id, setId] = useState(initial.id);
  const [collection, setCollection] = useState(initial.collection);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = id.trim();
    if (!value) return;
    if (kind === 'user') navigate(href('recipients', value));
    else if (kind === 'tenant') navigate(href('recipients', undefined, { tenant: value }));
    else if (collection.trim()) navigate(href('recipients', undefined, { object: `${collection.trim()}/${value}` }));
  };
  const label = kind === 'user' ? 'User id' : kind === 'tenant' ? 'Tenant id' : 'Object id';
  return (
    <form onSubmit={submit} aria-label="Find a recipient">
      <Group align="end">
        <SegmentedControl
          aria-label="Kind of recipient"
          value={kind}
          onChange={(v) => setKind(v as Kind)}
          data={[
            { value: 'user', label: 'User' },
            { value: 'object', label: 'Object' },
            { value: 'tenant', label: 'Tenant' },
          ]}
        />
        {kind === 'object' && (
          <TextInput label="Collection" value={collection} onChange={(e) => setCollection(e.currentTarget.value)} w={200} />
        )}
        <TextInput label={label} value={id} onChange={(e) => setId(e.currentTarget.value)} w={300} />
        <Button type="submit" disabled={!id.trim() || (kind === 'object' && !collection.trim())}>
          Find {kind}
        </Button>
      </Group>
    </form>
  );
}

function UserList() {
  const { api, environment } = useConsole();
  const list = useFilteredList(
    {},
    (_filters, after, signal) => api.secret<Page<User>>(environment, 'GET', '/v1/users', { query: { page_size: 50, after }, signal }),
    [api, environment],
  );
  return (
    <PagedList loaded={list.page} label="users" onNext={list.next}>
      {(rows) => (
        <DataTable
          caption="Users"
          rows={rows}
          rowKey={(u) => u.id}
          empty="No users in this environment."
          columns={[
            { header: 'Id', cell: (u) => <Anchor href={href('recipients', u.id)}>{u.id}</Anchor> },
            { header: 'Name', cell: (u) => u.name ?? '—' },
            { header: 'Email', cell: (u) => u.email ?? '—' },
            { header: 'Updated', cell: (u) => time(u.updated_at) },
          ]}
        />
      )}
    </PagedList>
  );
}

/** A user or an object: properties, preferences, channel data, subscriptions, schedules, messages and its history from the log. */
function RecipientDetail({ kind, label, base, historyOf, id }: { kind: Kind; label: string; base: string; historyOf: string; id: string }) {
  const { api, environment } = useConsole();
  const user = useLoad((signal) => api.secret<User>(environment, 'GET', base, { signal }), [api, environment, base]);
  // Objects: their preference sets; users: the layers panel reads its own.
  const preferences = useLoad(
    async (signal) => (kind === 'user' ? null : api.secret<unknown>(environment, 'GET', `${base}/preferences`, { signal })),
    [api, environment, base, kind],
  );
  const subscriptions = useLoad(
    (signal) => api.secret<Page<unknown>>(environment, 'GET', `${base}/subscriptions`, { signal }),
    [api, environment, base],
  );
  const schedules = useLoad(
    (signal) => api.secret<Page<unknown>>(environment, 'GET', `${base}/schedules`, { signal }),
    [api, environment, base],
  );
  const messages = useLoad(
    (signal) => api.secret<Page<Message>>(environment, 'GET', `${base}/messages`, { query: { page_size: 50 }, signal }),
    [api, environment, base],
  );
  const history = useLoad(
    (signal) => api.service<LogPage>('GET', historyOf, { query: { environment, limit: 200 }, signal }),
    [api, environment, historyOf],
  );
  const channels = useChannels();
  const channelData = useLoad(
    async (signal) => {
      const found: { channel: string; data: unknown }[] = [];
      for (const channel of channels.data ?? []) {
        try {
          const answer = await api.secret<{ data: unknown }>(environment, 'GET', `${base}/channel_data/${channel.id}`, { signal });
          found.push({ channel: `${channel.key} (${channel.type})`, data: answer.data });
        } catch (e) {
          if (!(e instanceof ApiError && e.status === 404)) throw e;
        }
      }
      return found;
    },
    [api, environment, base, channels.data],
  );

  return (
    <Stack>
      <Async loaded={user} label={label}>
        {(u) => (
          <Group gap="lg">
            <Title order={3}>{u.name ?? u.id}</Title>
            <Text size="sm">{u.email ?? ''}</Text>
            <Text size="sm" c="dimmed">
              {kind} {id} · updated {time(u.updated_at)}
            </Text>
            {kind === 'user' && (
              <Anchor size="sm" href={href('runs', undefined, { recipient: u.id })}>
                Runs
              </Anchor>
            )}
          </Group>
        )}
      </Async>
      <Tabs defaultValue="properties">
        <Tabs.List aria-label="Recipient views">
          <Tabs.Tab value="properties">Properties</Tabs.Tab>
          <Tabs.Tab value="preferences">Preferences</Tabs.Tab>
          {kind === 'user' && <Tabs.Tab value="audiences">Audiences</Tabs.Tab>}
          <Tabs.Tab value="channel-data">Channel data</Tabs.Tab>
          <Tabs.Tab value="subscriptions">Subscriptions</Tabs.Tab>
          <Tabs.Tab value="schedules">Schedules</Tabs.Tab>
          <Tabs.Tab value="messages">Messages</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="properties" pt="md">
          <Async loaded={user} label="the properties">
            {(u) => <Json value={u} label="Properties" maxHeight={600} />}
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="preferences" pt="md">
          {kind === 'user' ? (
            <PreferenceLayersPanel userId={id} />
          ) : (
            <Async loaded={preferences} label="the preferences">
              {(p) => <Json value={p} label="Preference sets" maxHeight={600} />}
            </Async>
          )}
        </Tabs.Panel>
        {kind === 'user' && (
          <Tabs.Panel value="audiences" pt="md">
            <AudiencesPanel userId={id} />
          </Tabs.Panel>
        )}
        <Tabs.Panel value="channel-data" pt="md">
          <Async loaded={channelData} label="the channel data">
            {(rows) => (
              <DataTable
                caption="Channel data"
                rows={rows}
                rowKey={(r) => r.channel}
                empty="No channel data."
                columns={[
                  { header: 'Channel', cell: (r) => r.channel },
                  { header: 'Data', cell: (r) => <Json value={r.data} maxHeight={160} /> },
                ]}
              />
            )}
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="subscriptions" pt="md">
          <Async loaded={subscriptions} label="the subscriptions">
            {(p) =>
              entriesOf(p).length ? (
                <Json value={entriesOf(p)} label="Subscriptions" maxHeight={600} />
              ) : (
                <Text c="dimmed">No subscriptions.</Text>
              )
            }
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="schedules" pt="md">
          <Async loaded={schedules} label="the schedules">
            {(p) =>
              entriesOf(p).length ? <Json value={entriesOf(p)} label="Schedules" maxHeight={600} /> : <Text c="dimmed">No schedules.</Text>
            }
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="messages" pt="md">
          <Async loaded={messages} label="the messages">
            {(p) => <MessageTable messages={entriesOf(p)} channels={channels.data ?? []} />}
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <Text size="sm" c="dimmed" mb="xs">
            Everything that happened to this {kind} (its own events, its runs and messages), in log order.
          </Text>
          <Async loaded={history} label="the history">
            {(p) => <EventList events={p.entries} label={`History of ${id}`} />}
          </Async>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** A tenant: its properties and settings, and its stream. */
function TenantDetail({ tenantId }: { tenantId: string }) {
  const { api, environment } = useConsole();
  const tenant = useLoad(
    (signal) => api.secret<Record<string, unknown>>(environment, 'GET', `/v1/tenants/${encodeURIComponent(tenantId)}`, { signal }),
    [api, environment, tenantId],
  );
  return (
    <Stack>
      <Title order={3}>Tenant {tenantId}</Title>
      <Async loaded={tenant} label={`tenant ${tenantId}`}>
        {(t) => <Json value={t} label="Tenant" maxHeight={400} />}
      </Async>
      <StreamHistory stream={`tenant-${environment}-${tenantId}`} />
    </Stack>
  );
}
