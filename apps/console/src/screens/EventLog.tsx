import { Badge, Button, Checkbox, Code, Group, Select, SimpleGrid, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { FormEvent, useEffect, useRef, useState } from 'react';
import { entriesOf } from '../api';
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
 * Follows `$all` from its head: GET /v1/events/head, then GET /v1/events?after= once a second
 * (a page always carries the cursor to go on from). New events appear on top.
 */
function LiveTail() {
  const { api, environment } = useConsole();
  const [form, setForm] = useState<TailFilters>({ types: '', prefix: '', thisEnvironment: false });
  const [filters, setFilters] = useState(form);
  const [paused, setPaused] = useState(false);
  const [events, setEvents] = useState<LogEvent[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [following, setFollowing] = useState(false);
  const cursor = useRef<string | null>(null);

  // A new filter starts again from the head.
  useEffect(() => {
    cursor.current = null;
    setEvents([]);
  }, [filters, environment]);

  useEffect(() => {
    if (paused) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        if (cursor.current === null) {
          const head = await api.service<{ after: string }>('GET', '/v1/events/head', { signal: controller.signal });
          cursor.current = head.after;
          setFollowing(true);
        }
        let more = true;
        while (more && !controller.signal.aborted) {
          const page: LogPage = await api.service<LogPage>('GET', '/v1/events', {
            query: {
              after: cursor.current ?? undefined,
              limit: 100,
              types: list(filters.types),
              stream_prefix: list(filters.prefix),
              environment: filters.thisEnvironment ? environment : undefined,
            },
            signal: controller.signal,
          });
          if (page.page_info.after) cursor.current = page.page_info.after;
          if (page.entries.length) setEvents((old) => [...page.entries.reverse(), ...old].slice(0, TAIL_KEEP));
          more = page.entries.length === 100;
        }
        setError(null);
      } catch (e) {
        if (controller.signal.aborted) return;
        setError(e);
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void poll(), TAIL_INTERVAL_MS);
    };
    void poll();
    return () => {
      controller.abort();
      if (timer) clearTimeout(timer);
      setFollowing(false);
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
        <Badge color={paused ? 'gray' : following ? 'green' : 'yellow'} variant="dot" data-testid="tail-state">
          {paused ? 'paused' : following ? 'following' : 'connecting'}
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
