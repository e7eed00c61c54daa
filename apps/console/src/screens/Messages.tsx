import { Anchor, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { entriesOf, Page } from '../api';
import { FilterBar, PagedList, pageQuery, useFilteredList } from '../list';
import { href } from '../router';
import { useConsole } from '../session';
import { Async, DataTable, Json, Status, time, useLoad } from '../ui';
import { Explanation, ExplainView, RecipientLink } from './Runs';

export interface Message {
  id: string;
  channel_id: string;
  recipient: unknown;
  status: string;
  engagement_statuses?: string[];
  seen_at: string | null;
  read_at: string | null;
  archived_at?: string | null;
  inserted_at: string;
  updated_at?: string;
  source: { key: string; step_ref?: string; workflow_recipient_run_id?: string; workflow_run_id?: string };
  data?: unknown;
}

interface Channel {
  id: string;
  key: string;
  name: string;
  type: string;
}

const STATUSES = ['queued', 'sent', 'delivered', 'delivery_attempted', 'undelivered', 'not_sent', 'bounced'];
const ENGAGEMENT = ['seen', 'unseen', 'read', 'unread', 'archived', 'unarchived', 'link_clicked', 'interacted'];

export function MessagesScreen({ id, params }: { id?: string; params: URLSearchParams }) {
  return id ? <MessageDetail messageId={id} /> : <MessageList params={params} />;
}

export function useChannels() {
  const { api } = useConsole();
  return useLoad(
    (signal) => api.service<{ entries: Channel[] }>('GET', '/v1/channels', { query: { limit: 100 }, signal }).then(entriesOf),
    [api],
  );
}

export function MessageTable({ messages, channels }: { messages: Message[]; channels: Channel[] }) {
  return (
    <DataTable
      caption="Messages"
      rows={messages}
      rowKey={(m) => m.id}
      empty="No messages match."
      columns={[
        { header: 'Message', cell: (m) => <Anchor href={href('messages', m.id)}>{m.id.slice(0, 8)}</Anchor> },
        { header: 'Workflow', cell: (m) => <Anchor href={href('workflows', m.source.key)}>{m.source.key}</Anchor> },
        { header: 'Recipient', cell: (m) => <RecipientLink recipient={m.recipient} /> },
        { header: 'Channel', cell: (m) => channels.find((c) => c.id === m.channel_id)?.key ?? m.channel_id.slice(0, 8) },
        { header: 'Status', cell: (m) => <Status value={m.status} /> },
        { header: 'Engagement', cell: (m) => (m.engagement_statuses ?? []).join(', ') || '—' },
        { header: 'Sent', cell: (m) => time(m.inserted_at) },
      ]}
    />
  );
}

function MessageList({ params }: { params: URLSearchParams }) {
  const { api, environment } = useConsole();
  const channels = useChannels();
  const list = useFilteredList(
    {
      since: '',
      until: '',
      recipient: params.get('recipient') ?? '',
      workflow: params.get('workflow') ?? '',
      tenant: params.get('tenant') ?? '',
      channel: '',
      status: '',
      engagement: '',
    },
    (filters, after, signal) => {
      const path = filters.recipient.trim() ? `/v1/users/${encodeURIComponent(filters.recipient.trim())}/messages` : '/v1/messages';
      return api.secret<Page<Message>>(environment, 'GET', path, {
        query: {
          source: filters.workflow.trim(),
          tenant: filters.tenant.trim(),
          channel_id: filters.channel,
          status: filters.status ? [filters.status] : undefined,
          engagement_status: filters.engagement ? [filters.engagement] : undefined,
          ...pageQuery(filters, after),
        },
        signal,
      });
    },
    [api, environment],
  );
  return (
    <Stack>
      <Title order={2}>Messages</Title>
      <FilterBar list={list} label="Message filters" submit="Search">
        {list.text('recipient', 'Recipient (user id)')}
        {list.text('workflow', 'Workflow')}
        {list.text('tenant', 'Tenant', 140)}
        {list.select(
          'channel',
          'Channel',
          (channels.data ?? []).map((c) => ({ value: c.id, label: c.key })),
          180,
        )}
        {list.select('status', 'Status', STATUSES, 170)}
        {list.select('engagement', 'Engagement', ENGAGEMENT, 150)}
        {list.time('since', 'Since')}
        {list.time('until', 'Until')}
      </FilterBar>
      <PagedList loaded={list.page} label="messages" onNext={list.next}>
        {(rows) => <MessageTable messages={rows} channels={channels.data ?? []} />}
      </PagedList>
    </Stack>
  );
}

function MessageDetail({ messageId }: { messageId: string }) {
  const { api, environment } = useConsole();
  const path = `/v1/messages/${encodeURIComponent(messageId)}`;
  const message = useLoad((signal) => api.secret<Message>(environment, 'GET', path, { signal }), [api, environment, messageId]);
  const content = useLoad(
    (signal) => api.secret<unknown>(environment, 'GET', `${path}/content`, { signal }),
    [api, environment, messageId],
  );
  const logs = useLoad(
    (signal) => api.secret<Page<unknown>>(environment, 'GET', `${path}/delivery_logs`, { signal }),
    [api, environment, messageId],
  );
  const events = useLoad(
    (signal) => api.secret<Page<any>>(environment, 'GET', `${path}/events`, { signal }),
    [api, environment, messageId],
  );
  const explain = useLoad(
    (signal) => api.secret<Explanation>(environment, 'GET', `${path}/explain`, { signal }),
    [api, environment, messageId],
  );
  return (
    <Stack>
      <Group gap="xs">
        <Anchor href={href('messages')}>Messages</Anchor>
        <Text c="dimmed">/</Text>
        <Title order={2}>Message {messageId}</Title>
      </Group>
      <Async loaded={message} label="the message">
        {(m) => (
          <Group gap="lg">
            <Status value={m.status} />
            <Text size="sm">
              Workflow <Anchor href={href('workflows', m.source.key)}>{m.source.key}</Anchor>
              {m.source.step_ref ? ` · step ${m.source.step_ref}` : ''}
            </Text>
            <Text size="sm">
              Recipient <RecipientLink recipient={m.recipient} />
            </Text>
            <Text size="sm">Sent {time(m.inserted_at)}</Text>
            {m.source.workflow_recipient_run_id && (
              <Anchor href={href('runs', m.source.workflow_recipient_run_id)}>Open run timeline</Anchor>
            )}
            <Anchor href={href('events', undefined, { stream: `message-${environment}-${m.id}` })}>Message events in the log</Anchor>
          </Group>
        )}
      </Async>
      <Tabs defaultValue="content">
        <Tabs.List aria-label="Message views">
          <Tabs.Tab value="content">Content</Tabs.Tab>
          <Tabs.Tab value="logs">Delivery logs</Tabs.Tab>
          <Tabs.Tab value="events">Engagement</Tabs.Tab>
          <Tabs.Tab value="explain">Why</Tabs.Tab>
          <Tabs.Tab value="raw">Message</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="content" pt="md">
          <Async loaded={content} label="the content">
            {(c) => <Json value={c} label="Message content" maxHeight={600} />}
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="logs" pt="md">
          <Async loaded={logs} label="the delivery logs">
            {(p) =>
              entriesOf(p).length ? (
                <Json value={entriesOf(p)} label="Delivery logs" maxHeight={600} />
              ) : (
                <Text c="dimmed">No delivery logs.</Text>
              )
            }
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="events" pt="md">
          <Async loaded={events} label="the engagement events">
            {(p) => (
              <DataTable
                caption="Message events"
                rows={entriesOf(p)}
                rowKey={(e: any, i) => String(e.id ?? i)}
                columns={[
                  { header: 'Event', cell: (e: any) => e.type },
                  { header: 'At', cell: (e: any) => time(e.inserted_at) },
                  { header: 'Data', cell: (e: any) => (e.data ? <Json value={e.data} maxHeight={100} /> : '—') },
                ]}
              />
            )}
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="explain" pt="md">
          <Async loaded={explain} label="the explanation">
            {(x) => <ExplainView explanation={x} runEvents={[]} />}
          </Async>
        </Tabs.Panel>
        <Tabs.Panel value="raw" pt="md">
          <Async loaded={message} label="the message">
            {(m) => <Json value={m} label="Message" maxHeight={600} />}
          </Async>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
