import { Badge, Button, Checkbox, Code, Group, Progress, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { FormEvent, useEffect, useRef, useState } from 'react';
import { ApiError, entriesOf } from '../api';
import { EventList, LogEvent, LogPage } from '../events';
import { useConsole } from '../session';
import { Async, DataTable, ErrorAlert, Status, useLoad } from '../ui';

const TAIL_INTERVAL_MS = 1000;
const TAIL_KEEP = 200;

export function EventLogScreen({ params }: { params: URLSearchParams }) {
  const stream = params.get('stream');
  return (
    <Stack>
      <Title order={2}>Event log</Title>
      <Tabs defaultValue={stream ? 'stream' : 'tail'}>
        <Tabs.List aria-label="Event log views">
          <Tabs.Tab value="tail">Live tail</Tabs.Tab>
          <Tabs.Tab value="stream">Stream reader</Tabs.Tab>
          <Tabs.Tab value="projections">Projections</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="tail" pt="md">
          <LiveTail />
        </Tabs.Panel>
        <Tabs.Panel value="stream" pt="md">
          <StreamReader initial={stream ?? ''} />
        </Tabs.Panel>
        <Tabs.Panel value="projections" pt="md">
          <Projections />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

interface TailFilters {
  types: string;
  prefix: string;
  thisEnvironment: boolean;
}

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * Follows `$all` from its head: GET /v1/events/head, then the server pushes new pages over
 * GET /v1/events/tail (server-sent events, ADR 0211). When the stream cannot be opened or
 * breaks, it polls GET /v1/events?after= once a second from where it got to, and tries the
 * stream again now and then. New events appear on top.
 */
function LiveTail() {
  const { api, environment } = useConsole();
  const [form, setForm] = useState<TailFilters>({ types: '', prefix: '', thisEnvironment: false });
  const [filters, setFilters] = useState(form);
  const [paused, setPaused] = useState(false);
  const [events, setEvents] = useState<LogEvent[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [mode, setMode] = useState<'connecting' | 'pushed' | 'polling'>('connecting');
  const cursor = useRef<string | null>(null);

  // A new filter starts again from the head.
  useEffect(() => {
    cursor.current = null;
    setEvents([]);
  }, [filters, environment]);

  useEffect(() => {
    if (paused) return;
    const controller = new AbortController();
    const { signal } = controller;
    const query = {
      limit: 100,
      types: list(filters.types),
      stream_prefix: list(filters.prefix),
      environment: filters.thisEnvironment ? environment : undefined,
    };
    const add = (page: LogPage) => {
      if (page.page_info.after) cursor.current = page.page_info.after;
      if (page.entries.length) setEvents((old) => [...[...page.entries].reverse(), ...old].slice(0, TAIL_KEEP));
    };
    const poll = async () => {
      let more = true;
      while (more && !signal.aborted) {
        const page = await api.service<LogPage>('GET', '/v1/events', { query: { ...query, after: cursor.current ?? undefined }, signal });
        add(page);
        more = page.entries.length === 100;
      }
    };
    const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const follow = async () => {
      for (let attempt = 0; !signal.aborted; attempt++) {
        try {
          if (cursor.current === null) cursor.current = (await api.service<{ after: string }>('GET', '/v1/events/head', { signal })).after;
          // Pushed: the stream's first comment says it is following.
          setMode('pushed');
          setError(null);
          await api.stream('/v1/events/tail', { ...query, after: cursor.current }, signal, (event, data) => {
            if (event === 'events') add(JSON.parse(data) as LogPage);
          });
        } catch (e) {
          if (signal.aborted) return;
          if (!(e instanceof ApiError) || e.code !== 'stream_failed') setError(e);
        }
        if (signal.aborted) return;
        // The stream is gone: poll for a while, then try the stream again.
        setMode('polling');
        for (let i = 0; i < 10 + Math.min(attempt, 5) * 10 && !signal.aborted; i++) {
          try {
            if (cursor.current === null)
              cursor.current = (await api.service<{ after: string }>('GET', '/v1/events/head', { signal })).after;
            await poll();
            setError(null);
          } catch (e) {
            if (!signal.aborted) setError(e);
          }
          await wait(TAIL_INTERVAL_MS);
        }
      }
    };
    void follow();
    return () => {
      controller.abort();
      setMode('connecting');
    };
  }, [api, environment, filters, paused]);

  const apply = (e: FormEvent) => {
    e.preventDefault();
    setFilters(form);
  };
  return (
    <Stack>
      <form onSubmit={apply} aria-label="Tail filters">
        <Group align="end">
          <TextInput
            label="Event types"
            placeholder="MessageSent, UserIdentified"
            value={form.types}
            onChange={(e) => setForm({ ...form, types: e.currentTarget.value })}
            w={280}
          />
          <TextInput
            label="Stream prefix"
            placeholder={`message-${environment}-`}
            value={form.prefix}
            onChange={(e) => setForm({ ...form, prefix: e.currentTarget.value })}
            w={240}
          />
          <Checkbox
            label={`Only ${environment}`}
            checked={form.thisEnvironment}
            onChange={(e) => setForm({ ...form, thisEnvironment: e.currentTarget.checked })}
            mb={8}
          />
          <Button type="submit">Apply</Button>
          <Button variant="default" onClick={() => setPaused((p) => !p)} aria-pressed={paused}>
            {paused ? 'Resume' : 'Pause'}
          </Button>
          <Button variant="subtle" onClick={() => setEvents([])}>
            Clear
          </Button>
        </Group>
      </form>
      <Group gap="xs" aria-live="polite">
        <Badge color={paused ? 'gray' : mode === 'connecting' ? 'yellow' : 'green'} variant="dot" data-testid="tail-state">
          {paused ? 'paused' : mode === 'connecting' ? 'connecting' : mode === 'pushed' ? 'following (pushed)' : 'following (polling)'}
        </Badge>
        <Text size="sm" c="dimmed">
          {events.length} event(s) since the tail started (newest first, last {TAIL_KEEP} kept)
        </Text>
      </Group>
      <ErrorAlert error={error} title="The tail could not read the log" />
      <EventList events={events} label="Live events" empty="Waiting for new events…" />
    </Stack>
  );
}

function StreamReader({ initial }: { initial: string }) {
  const { api } = useConsole();
  const [stream, setStream] = useState(initial);
  const [direction, setDirection] = useState('backwards');
  const [request, setRequest] = useState<{ stream: string; direction: string; after?: string } | null>(
    initial ? { stream: initial, direction: 'backwards' } : null,
  );
  const categories = useLoad(
    (signal) => api.service<{ entries: { category: string; pattern: string }[] }>('GET', '/v1/events/categories', { signal }),
    [api],
  );
  const page = useLoad(
    async (signal) =>
      request
        ? api.service<LogPage>('GET', `/v1/events/streams/${encodeURIComponent(request.stream)}`, {
            query: { direction: request.direction, limit: 100, after: request.after },
            signal,
          })
        : null,
    [api, request],
  );
  const read = (e: FormEvent) => {
    e.preventDefault();
    if (stream.trim()) setRequest({ stream: stream.trim(), direction });
  };
  return (
    <Stack>
      <form onSubmit={read} aria-label="Read a stream">
        <Group align="end">
          <TextInput
            label="Stream id"
            placeholder="user-development-ada"
            value={stream}
            onChange={(e) => setStream(e.currentTarget.value)}
            w={380}
          />
          <Select
            label="Direction"
            data={['forwards', 'backwards']}
            value={direction}
            onChange={(v) => setDirection(v ?? 'backwards')}
            w={150}
            allowDeselect={false}
          />
          <Button type="submit" disabled={!stream.trim()}>
            Read
          </Button>
        </Group>
      </form>
      {categories.data && (
        <Text size="xs" c="dimmed">
          Stream ids:{' '}
          {entriesOf(categories.data)
            .map((c) => c.pattern)
            .join(' · ')}
        </Text>
      )}
      {request && (
        <Async loaded={page} label="the stream">
          {(p) =>
            p && (
              <>
                <EventList events={p.entries} label={`Stream ${request.stream}`} empty="This stream has no events." />
                {p.page_info.after && (
                  <Button variant="default" w={160} onClick={() => setRequest({ ...request, after: p.page_info.after ?? undefined })}>
                    Next page
                  </Button>
                )}
              </>
            )
          }
        </Async>
      )}
    </Stack>
  );
}

interface Rebuild {
  projection: string;
  state: 'running' | 'done' | 'failed';
  events_done: number;
  events_total: number;
  events_applied: number;
  events_per_second: number;
  error: string | null;
}

/**
 * Empties a read model and replays the log into it (POST /v1/projections/{name}/rebuild, ADR
 * 0211), then follows its progress every half second. Owners and admins only (the server says so too).
 */
function RebuildButton({ name }: { name: string }) {
  const { api, role } = useConsole();
  const [rebuild, setRebuild] = useState<Rebuild | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (rebuild?.state !== 'running') return;
    const timer = setTimeout(() => {
      api.service<Rebuild>('GET', `/v1/projections/${encodeURIComponent(name)}/rebuild`).then(setRebuild, setError);
    }, 500);
    return () => clearTimeout(timer);
  }, [api, name, rebuild]);
  const start = () => {
    setError(null);
    api.service<Rebuild>('POST', `/v1/projections/${encodeURIComponent(name)}/rebuild`).then(setRebuild, setError);
  };
  const percent = rebuild && rebuild.events_total > 0 ? Math.round((rebuild.events_done * 100) / rebuild.events_total) : 0;
  return (
    <Stack gap={4} miw={180}>
      <Button
        size="xs"
        variant="light"
        onClick={start}
        loading={rebuild?.state === 'running'}
        disabled={role !== 'admin'}
        title={role !== 'admin' ? 'Owners and admins may rebuild' : undefined}
        aria-label={`Rebuild ${name}`}
      >
        Rebuild
      </Button>
      {rebuild && (
        <>
          <Progress value={rebuild.state === 'done' ? 100 : percent} aria-label={`Rebuild of ${name}`} size="sm" />
          <Text size="xs" data-testid={`rebuild-${name}`}>
            {rebuild.state}: {rebuild.events_done} / {rebuild.events_total} events, {rebuild.events_per_second} events/s
            {rebuild.error ? ` — ${rebuild.error}` : ''}
          </Text>
        </>
      )}
      <ErrorAlert error={error} title="Rebuild failed" />
    </Stack>
  );
}

interface Readiness {
  status: string;
  backends: Record<string, { status: string; detail?: string }>;
  projections?: { name: string; position: string; events_applied: number; last_error?: string }[];
  projection_lag?: number;
  kafka_relay?: { name: string; position: string; lag_events: number; lag_seconds: number; events_published: number };
}

/** Projection checkpoints and lag, backends and the Kafka relay, from /readyz, refreshed every 5 seconds. */
function Projections() {
  const { api } = useConsole();
  const readiness = useLoad((_signal) => api.open<Readiness>('/readyz'), [api]);
  const { reload } = readiness;
  useEffect(() => {
    const timer = setInterval(reload, 5000);
    return () => clearInterval(timer);
  }, [reload]);
  return (
    <Async loaded={readiness} label="the projection status">
      {(r) => (
        <Stack>
          <SimpleGrid cols={{ base: 2, md: 4 }}>
            <div>
              <Text size="xs" c="dimmed">
                Readiness
              </Text>
              <Status value={r.status} />
            </div>
            <div>
              <Text size="xs" c="dimmed">
                Projection lag (events)
              </Text>
              <Text fw={600}>{r.projection_lag ?? '—'}</Text>
            </div>
            {Object.entries(r.backends).map(([name, b]) => (
              <div key={name}>
                <Text size="xs" c="dimmed">
                  {name}
                </Text>
                <Status value={b.status} /> {b.detail && <Text size="xs">{b.detail}</Text>}
              </div>
            ))}
          </SimpleGrid>
          <DataTable
            caption="Projections"
            rows={r.projections ?? []}
            rowKey={(p) => p.name}
            columns={[
              { header: 'Projection', cell: (p) => <Code>{p.name}</Code> },
              { header: 'Events applied', cell: (p) => p.events_applied },
              { header: 'Position', cell: (p) => <Code>{p.position}</Code> },
              { header: 'Last error', cell: (p) => p.last_error ?? '—' },
              { header: 'Rebuild', cell: (p) => <RebuildButton name={p.name} /> },
            ]}
          />
          <Title order={3} size="h5">
            Kafka relay
          </Title>
          {r.kafka_relay ? (
            <Text size="sm">
              {r.kafka_relay.name}: {r.kafka_relay.events_published} published, {r.kafka_relay.lag_events} behind (
              {r.kafka_relay.lag_seconds} s)
            </Text>
          ) : (
            <Text size="sm" c="dimmed">
              Not configured (no KAFKA_BROKERS), or no checkpoint yet.
            </Text>
          )}
        </Stack>
      )}
    </Async>
  );
}
