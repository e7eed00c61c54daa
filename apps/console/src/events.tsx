import { Accordion, Badge, Group, Text } from '@mantine/core';
import { Json, time } from './ui';

/** One event of the log as the event-log API answers it. */
export interface LogEvent {
  id: string;
  type: string;
  stream: string;
  revision: number;
  global_position: string;
  position: string;
  recorded_at: string;
  environment: string | null;
  correlation_id: string | null;
  causation_id: string | null;
  actor: string | null;
  schema_version: number | null;
  metadata: Record<string, unknown>;
  data: unknown;
}

export interface LogPage {
  entries: LogEvent[];
  page_info: { after: string | null; page_size: number };
}

/** Events, one line each (position, time, type, stream); opening one shows all it was recorded with. */
export function EventList({ events, label, empty = 'No events.' }: { events: LogEvent[]; label: string; empty?: string }) {
  if (events.length === 0)
    return (
      <Text c="dimmed" size="sm">
        {empty}
      </Text>
    );
  return (
    <Accordion multiple variant="contained" chevronPosition="left" aria-label={label} data-testid={label}>
      {events.map((e) => (
        <Accordion.Item key={e.id} value={e.id} data-event-type={e.type}>
          <Accordion.Control aria-label={`${e.type} on ${e.stream} at #${e.global_position}`}>
            <Group gap="sm" wrap="nowrap">
              <Text size="xs" c="dimmed" ff="monospace" w={64}>
                #{e.global_position}
              </Text>
              <Text size="xs" c="dimmed" ff="monospace" w={170}>
                {time(e.recorded_at)}
              </Text>
              <Badge variant="light" radius="sm" tt="none">
                {e.type}
              </Badge>
              <Text size="sm" ff="monospace" truncate>
                {e.stream}@{e.revision}
              </Text>
            </Group>
          </Accordion.Control>
          <Accordion.Panel>
            <Json
              label={`Event ${e.type} #${e.global_position}`}
              value={{
                id: e.id,
                environment: e.environment,
                actor: e.actor,
                correlation_id: e.correlation_id,
                causation_id: e.causation_id,
                schema_version: e.schema_version,
                position: e.position,
                metadata: e.metadata,
                data: e.data,
              }}
            />
          </Accordion.Panel>
        </Accordion.Item>
      ))}
    </Accordion>
  );
}
