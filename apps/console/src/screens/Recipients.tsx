import { Anchor, Button, Group, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { FormEvent, useState } from 'react';
import { ApiError, entriesOf, Page } from '../api';
import { EventList, LogPage } from '../events';
import { href, navigate } from '../router';
import { useConsole } from '../session';
import { Async, DataTable, Json, time, useLoad } from '../ui';
import { Message, MessageTable, useChannels } from './Messages';

interface User {
  id: string;
  name?: string | null;
  email?: string | null;
  created_at?: string | null;
  updated_at: string;
  [key: string]: unknown;
}

export function RecipientsScreen({ id }: { id?: string }) {
  return (
    <Stack>
      <Title order={2}>Recipients</Title>
      <FindUser initial={id ?? ''} />
      {id ? <UserDetail userId={id} key={id} /> : <UserList />}
    </Stack>
  );
}

function FindUser({ initial }: { initial: string }) {
  const [id, setId] = useState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (id.trim()) navigate(href('recipients', id.trim()));
  };
  return (
    <form onSubmit={submit} aria-label="Find a user">
      <Group align="end">
        <TextInput label="User id" value={id} onChange={(e) => setId(e.currentTarget.value)} w={320} />
        <Button type="submit" disabled={!id.trim()}>
          Find user
        </Button>
      </Group>
    </form>
  );
}

function UserList() {
  const { api, environment } = useConsole();
  const [after, setAfter] = useState<string | undefined>();
  const users = useLoad(
    (signal) => api.secret<Page<User>>(environment, 'GET', '/v1/users', { query: { page_size: 50, after }, signal }),
    [api, environment, after],
  );
  return (
    <Async loaded={users} label="users">
      {(page) => (
        <>
          <DataTable
            caption="Users"
            rows={entriesOf(page)}
            rowKey={(u) => u.id}
            empty="No users in this environment."
            columns={[
              { header: 'Id', cell: (u) => <Anchor href={href('recipients', u.id)}>{u.id}</Anchor> },
              { header: 'Name', cell: (u) => u.name ?? '—' },
              { header: 'Email', cell: (u) => u.email ?? '—' },
              { header: 'Updated', cell: (u) => time(u.updated_at) },
            ]}
          />
          {page.page_info.after && (
            <Button variant="default" onClick={() => setAfter(page.page_info.after ?? undefined)} w={160}>
              Next page
            </Button>
          )}
        </>
      )}
    </Async>
  );
}

function UserDetail({ userId }: { userId: string }) {
  const { api, environment } = useConsole();
  const base = `/v1/users/${encodeURIComponent(userId)}`;
  const user = useLoad((signal) => api.secret<User>(environment, 'GET', base, { signal }), [api, environment, userId]);
  const preferences = useLoad(
    (signal) => api.secret<unknown>(environment, 'GET', `${base}/preferences`, { signal }),
    [api, environment, userId],
  );
  const subscriptions = useLoad(
    (signal) => api.secret<Page<unknown>>(environment, 'GET', `${base}/subscriptions`, { signal }),
    [api, environment, userId],
  );
  const schedules = useLoad(
    (signal) => api.secret<Page<unknown>>(environment, 'GET', `${base}/schedules`, { signal }),
    [api, environment, userId],
  );
  const messages = useLoad(
    (signal) => api.secret<Page<Message>>(environment, 'GET', `${base}/messages`, { query: { page_size: 50 }, signal }),
    [api, environment, userId],
  );
  const history = useLoad(
    (signal) =>
      api.service<LogPage>('GET', `/v1/events/users/${encodeURIComponent(userId)}`, {
        query: { environment, limit: 200 },
        signal,
      }),
    [api, environment, userId],
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
    [api, environment, userId, channels.data],
  );

  return (
    <Stack>
      <Async loaded={user} label={`user ${userId}`}>
        {(u) => (
          <Group gap="lg">
            <Title order={3}>{u.name ?? u.id}</Title>
            <Text size="sm">{u.email ?? ''}</Text>
            <Text size="sm" c="dimmed">
              id {u.id} · updated {time(u.updated_at)}
            </Text>
            <Anchor size="sm" href={href('runs', undefined, { recipient: u.id })}>
              Runs
            </Anchor>
          </Group>
        )}
      </Async>
      <Tabs defaultValue="properties">
        <Tabs.List aria-label="User views">
          <Tabs.Tab value="properties">Properties</Tabs.Tab>
          <Tabs.Tab value="preferences">Preferences</Tabs.Tab>
          <Tabs.Tab value="channel-data">Channel data</Tabs.Tab>
          <Tabs.Tab value="subscriptions">Subscriptions</Tabs.Tab>
          <Tabs.Tab value="schedules">Schedules</Tabs.Tab>
          <Tabs.Tab value="messages">Messages</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="properties" pt="md">
          <Async loaded={user} label="the properties">
            {(u) => <Json value={u} label="User properties" maxHeight={600} />}
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="preferences" pt="md">
          <Async loaded={preferences} label="the preferences">
            {(p) => <Json value={p} label="Preference sets" maxHeight={600} />}
          </Async>
        </Tabs.Panel>
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
            Everything that happened to this user (the user, its runs and messages), in log order.
          </Text>
          <Async loaded={history} label="the history">
            {(p) => <EventList events={p.entries} label={`History of ${userId}`} />}
          </Async>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
