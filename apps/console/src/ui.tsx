import { Alert, Badge, Code, Group, Loader, ScrollArea, Table, Text, TextInput } from '@mantine/core';
import { DependencyList, ReactNode, useCallback, useEffect, useState } from 'react';
import { ApiError } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload(): void;
}

/** Runs `load` when `deps` change; the latest answer wins. */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: DependencyList): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: undefined }));
    load(controller.signal).then(
      (data) => !controller.signal.aborted && setState({ data, loading: false }),
      (error: unknown) => !controller.signal.aborted && setState({ error, loading: false }),
    );
    return () => controller.abort();
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

export function ErrorAlert({ error, title = 'Request failed' }: { error: unknown; title?: string }) {
  if (!error) return null;
  const e = error as Partial<ApiError> & { message?: string };
  return (
    <Alert color="red" title={title} role="alert" variant="light">
      <Text size="sm">
        {e.status ? `${e.status} ${e.code}: ` : ''}
        {e.message ?? String(error)}
      </Text>
      {e.errors && e.errors.length > 0 && (
        <ul>
          {e.errors.map((f, i) => (
            <li key={i}>
              <Code>{f.field ?? '(workflow)'}</Code> {f.message}
            </li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

/** The loading, error and empty states of a loaded value around its view. */
export function Async<T>({ loaded, children, label }: { loaded: Loaded<T>; children: (data: T) => ReactNode; label: string }) {
  if (loaded.error) return <ErrorAlert error={loaded.error} title={`Could not load ${label}`} />;
  if (loaded.data === undefined)
    return (
      <Group gap="xs">
        <Loader size="sm" aria-label={`Loading ${label}`} />
        <Text size="sm" c="dimmed">
          Loading {label}…
        </Text>
      </Group>
    );
  return <>{children(loaded.data)}</>;
}

export function Json({ value, label, maxHeight = 360 }: { value: unknown; label?: string; maxHeight?: number }) {
  return (
    <ScrollArea.Autosize mah={maxHeight} type="auto">
      <Code block aria-label={label} tabIndex={0}>
        {JSON.stringify(value, null, 2)}
      </Code>
    </ScrollArea.Autosize>
  );
}

export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? iso
    : d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
}

const STATUS_COLORS: Record<string, string> = {
  sent: 'green',
  delivered: 'green',
  completed: 'green',
  success: 'green',
  ok: 'green',
  ready: 'green',
  up: 'green',
  active: 'green',
  queued: 'blue',
  processing: 'blue',
  running: 'blue',
  pending: 'blue',
  paused: 'yellow',
  not_sent: 'gray',
  skipped: 'gray',
  cancelled: 'gray',
  disabled: 'gray',
  undelivered: 'red',
  bounced: 'red',
  error: 'red',
  failed: 'red',
  down: 'red',
  not_ready: 'red',
};

export function Status({ value }: { value: string | boolean | null | undefined }) {
  const text = value === true ? 'yes' : value === false ? 'no' : (value ?? '—');
  const color = typeof value === 'string' ? (STATUS_COLORS[value] ?? 'gray') : value ? 'green' : 'gray';
  return (
    <Badge color={color} variant="light" radius="sm">
      {text}
    </Badge>
  );
}

/** A plain table of rows; `columns` name the header cells. */
export function DataTable<T>({
  rows,
  columns,
  caption,
  empty = 'Nothing here yet.',
  rowKey,
}: {
  rows: T[];
  columns: { header: string; cell: (row: T) => ReactNode }[];
  caption: string;
  empty?: string;
  rowKey: (row: T, index: number) => string;
}) {
  if (rows.length === 0)
    return (
      <Text c="dimmed" size="sm">
        {empty}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.header}>{c.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, i) => (
            <Table.Tr key={rowKey(row, i)}>
              {columns.map((c) => (
                <Table.Td key={c.header}>{c.cell(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A local date and time (the browser's own picker), for time filters. */
export function TimeInput({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  return <TextInput type="datetime-local" label={label} value={value} onChange={(e) => onChange(e.currentTarget.value)} w={210} />;
}

/** The instant of a datetime-local value, as the API takes it (ISO 8601, UTC); undefined when empty or invalid. */
export function isoOf(local: string): string | undefined {
  if (!local) return undefined;
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
