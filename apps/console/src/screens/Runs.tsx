import { Anchor, Code, Group, SimpleGrid, Stack, Tabs, Text, Timeline, Title } from '@mantine/core';
import { Page } from '../api';
import { FilterBar, PagedList, pageQuery, useFilteredList } from '../list';
import { href } from '../router';
import { useConsole } from '../session';
import { Async, DataTable, Json, Status, time, useLoad } from '../ui';

export type RecipientRef = string | { id: string; collection: string } | null;

export function recipientLabel(r: unknown): string {
  if (!r) return '—';
  if (typeof r === 'string') return r;
  const o = r as { id?: string; collection?: string };
  return o.collection ? `${o.collection}/${o.id}` : String(o.id);
}

export function RecipientLink({ recipient }: { recipient: unknown }) {
  if (typeof recipient === 'string') return <Anchor href={href('recipients', recipient)}>{recipient}</Anchor>;
  const o = recipient as { id?: string; collection?: string } | null;
  if (o?.id && !o.collection) return <Anchor href={href('recipients', o.id)}>{o.id}</Anchor>;
  return <>{recipientLabel(recipient)}</>;
}

interface Run {
  id: string;
  workflow_run_id: string;
  workflow: string;
  recipient: RecipientRef;
  actor: RecipientRef;
  tenant: string | null;
  status: string;
  error_count: number;
  trigger_source: { type: string };
  inserted_at: string;
  updated_at: string;
}

interface RunEvent {
  id: string;
  event: string;
  status: string;
  step_ref: string | null;
  step_type: string | null;
  attempt?: number;
  data: Record<string, unknown> | null;
  inserted_at: string;
}

export interface Explanation {
  run_id: string | null;
  workflow_run_id: string | null;
  workflow: string | null;
  recipient: unknown;
  verdict: string;
  reason: string | null;
  trigger: { at: string; source: unknown; actor: unknown; tenant: unknown; data: unknown; correlation_id: string | null } | null;
  steps: {
    step_ref: string;
    step_type: string;
    status: string;
    reason: string | null;
    output: unknown;
    attempt: number | null;
    at: string;
  }[];
  messages: {
    message_id: string;
    channel: unknown;
    step_ref: string | null;
    status: string;
    reason: string | null;
    attempts: { attempt: number; outcome: string; reason: string | null; provider: string; provider_message_id: string | null }[];
  }[];
  timeline: { at: string; global_position: string; stream: string; type: string; text: string }[];
  text: string;
}

export function RunsScreen({ id, params }: { id?: string; params: URLSearchParams }) {
  return id ? <RunDetail runId={id} /> : <RunList params={params} />;
}

const STATUSES = ['queued', 'processing', 'paused', 'completed', 'cancelled'];

function RunList({ params }: { params: URLSearchParams }) {
  const { api, environment } = useConsole();
  const list = useFilteredList(
    {
      since: '',
      until: '',
      workflow: params.get('workflow') ?? '',
      recipient: params.get('recipient') ?? '',
      tenant: params.get('tenant') ?? '',
      workflowRunId: params.get('workflow_run_id') ?? '',
      status: '',
      errors: false,
    },
    (filters, after, signal) =>
      api.secret<Page<Run>>(environment, 'GET', '/v1/workflow_recipient_runs', {
        query: {
          workflow: filters.workflow.trim(),
          recipient: filters.recipient.trim(),
          tenant: filters.tenant.trim(),
          workflow_run_id: filters.workflowRunId.trim(),
          status: filters.status ? [filters.status] : undefined,
          has_errors: filters.errors || undefined,
          ...pageQuery(filters, after),
        },
        signal,
      }),
    [api, environment],
  );
  return (
    <Stack>
      <Title order={2}>Runs</Title>
      <FilterBar list={list} label="Run filters" submit="Filter">
        {list.text('workflow', 'Workflow')}
        {list.text('recipient', 'Recipient')}
        {list.text('tenant', 'Tenant', 140)}
        {list.text('workflowRunId', 'Trigger (workflow run id)', 300)}
        {list.select('status', 'Status', STATUSES, 160)}
        {list.checkbox('errors', 'With errors')}
        {list.time('since', 'Since')}
        {list.time('until', 'Until')}
      </FilterBar>
      <PagedList loaded={list.page} label="runs" onNext={list.next}>
        {(rows) => (
          <DataTable
            caption="Runs"
            rows={rows}
            rowKey={(r) => r.id}
            empty="No runs match."
            columns={[
              { header: 'Run', cell: (r) => <Anchor href={href('runs', r.id)}>{r.id.slice(0, 8)}</Anchor> },
              { header: 'Workflow', cell: (r) => <Anchor href={href('workflows', r.workflow)}>{r.workflow}</Anchor> },
              { header: 'Recipient', cell: (r) => <RecipientLink recipient={r.recipient} /> },
              { header: 'Status', cell: (r) => <Status value={r.status} /> },
              { header: 'Errors', cell: (r) => r.error_count },
              { header: 'Source', cell: (r) => r.trigger_source.type },
              { header: 'Started', cell: (r) => time(r.inserted_at) },
            ]}
          />
        )}
      </PagedList>
    </Stack>
  );
}

function RunDetail({ runId }: { runId: string }) {
  const { api, environment } = useConsole();
  const run = useLoad(
    (signal) =>
      api.secret<Run & { events: RunEvent[] }>(environment, 'GET', `/v1/workflow_recipient_runs/${encodeURIComponent(runId)}`, { signal }),
    [api, environment, runId],
  );
  const explain = useLoad(
    (signal) => api.secret<Explanation>(environment, 'GET', `/v1/workflow_recipient_runs/${encodeURIComponent(runId)}/explain`, { signal }),
    [api, environment, runId],
  );
  return (
    <Stack>
      <Group gap="xs">
        <Anchor href={href('runs')}>Runs</Anchor>
        <Text c="dimmed">/</Text>
        <Title order={2}>Run {runId}</Title>
      </Group>
      <Async loaded={run} label="the run">
        {(r) => (
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <Field label="Workflow">
              <Anchor href={href('workflows', r.workflow)}>{r.workflow}</Anchor>
            </Field>
            <Field label="Recipient">
              <RecipientLink recipient={r.recipient} />
            </Field>
            <Field label="Status">
              <Status value={r.status} />
            </Field>
            <Field label="Trigger">
              {r.trigger_source.type} · {time(r.inserted_at)} ·{' '}
              <Anchor href={href('events', undefined, { stream: `run-${environment}-${r.id}` })}>stream</Anchor>
            </Field>
          </SimpleGrid>
        )}
      </Async>
      <Async loaded={explain} label="the explanation">
        {(x) => <ExplainView explanation={x} runEvents={run.data?.events ?? []} />}
      </Async>
    </Stack>
  );
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </div>
  );
}

/** A run's story from the log: the verdict, the timeline of its events, each step's decision and each message's attempts. */
export function ExplainView({ explanation: x, runEvents }: { explanation: Explanation; runEvents: RunEvent[] }) {
  return (
    <Stack>
      <Group>
        <Text fw={600}>Verdict</Text>
        <Status value={x.verdict} />
        {x.reason && <Text size="sm">{x.reason}</Text>}
      </Group>
      <Tabs defaultValue="timeline">
        <Tabs.List aria-label="Run views">
          <Tabs.Tab value="timeline">Timeline</Tabs.Tab>
          <Tabs.Tab value="steps">Steps</Tabs.Tab>
          <Tabs.Tab value="messages">Messages</Tabs.Tab>
          <Tabs.Tab value="events">Run events</Tabs.Tab>
          <Tabs.Tab value="explain">Explain (text)</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="timeline" pt="md">
          <Timeline bulletSize={14} lineWidth={2} active={x.timeline.length} aria-label="Run timeline" data-testid="run-timeline">
            {x.timeline.map((t) => (
              <Timeline.Item key={`${t.global_position}-${t.type}`} title={t.type}>
                <Text size="sm">{t.text}</Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {time(t.at)} · #{t.global_position} ·{' '}
                  <Anchor size="xs" href={href('events', undefined, { stream: t.stream })}>
                    {t.stream}
                  </Anchor>
                </Text>
              </Timeline.Item>
            ))}
          </Timeline>
        </Tabs.Panel>
        <Tabs.Panel value="steps" pt="md">
          <DataTable
            caption="Step decisions"
            rows={x.steps}
            rowKey={(s, i) => `${s.step_ref}-${i}`}
            columns={[
              { header: 'Step', cell: (s) => <Code>{s.step_ref}</Code> },
              { header: 'Type', cell: (s) => s.step_type },
              { header: 'Status', cell: (s) => <Status value={s.status} /> },
              { header: 'Reason', cell: (s) => s.reason ?? '—' },
              { header: 'Attempt', cell: (s) => s.attempt ?? '—' },
              { header: 'Output', cell: (s) => (s.output ? <Json value={s.output} maxHeight={120} /> : '—') },
              { header: 'At', cell: (s) => time(s.at) },
            ]}
          />
        </Tabs.Panel>
        <Tabs.Panel value="messages" pt="md">
          <DataTable
            caption="Messages of the run"
            rows={x.messages}
            rowKey={(m) => m.message_id}
            empty="The run sent no message."
            columns={[
              { header: 'Message', cell: (m) => <Anchor href={href('messages', m.message_id)}>{m.message_id.slice(0, 8)}</Anchor> },
              { header: 'Step', cell: (m) => m.step_ref ?? '—' },
              { header: 'Status', cell: (m) => <Status value={m.status} /> },
              { header: 'Reason', cell: (m) => m.reason ?? '—' },
              {
                header: 'Attempts',
                cell: (m) =>
                  m.attempts.map((a) => `#${a.attempt} ${a.provider}: ${a.outcome}${a.reason ? ` (${a.reason})` : ''}`).join('; ') || '—',
              },
            ]}
          />
        </Tabs.Panel>
        <Tabs.Panel value="events" pt="md">
          <DataTable
            caption="Run events"
            rows={runEvents}
            rowKey={(e) => e.id}
            columns={[
              { header: 'Event', cell: (e) => e.event },
              { header: 'Status', cell: (e) => <Status value={e.status} /> },
              { header: 'Step', cell: (e) => e.step_ref ?? '—' },
              { header: 'Attempt', cell: (e) => e.attempt ?? '—' },
              { header: 'Data', cell: (e) => (e.data ? <Json value={e.data} maxHeight={120} /> : '—') },
              { header: 'At', cell: (e) => time(e.inserted_at) },
            ]}
          />
        </Tabs.Panel>
        <Tabs.Panel value="explain" pt="md">
          <Code block>{x.text}</Code>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
