import { eventContracts } from '@notify/contracts';
import { z } from 'zod';
import { DomainEventEnvelopeV1 } from '../envelopes/domain-event.v1';
import { MessageEventEnvelopeV1 } from '../envelopes/message-event.v1';
import { WorkflowRunEventEnvelopeV1 } from '../envelopes/workflow-run-event.v1';
import { RunWorkV1 } from '../run-work/run-work.v1';

/** Where the committed schemas live, relative to the repository root. */
export const KAFKA_SCHEMA_DIR = 'docs/kafka/schemas';

/**
 * Published schemas are tolerant readers: objects allow properties they do not list, because
 * fields may be added within a version (ADR 0051) and a consumer validating with an older copy
 * must not start rejecting records.
 */
function jsonSchema(schema: z.ZodType, title?: string): Record<string, unknown> {
  const generated = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'output',
    unrepresentable: 'any',
    override: (ctx) => {
      if (ctx.jsonSchema.additionalProperties === false) delete ctx.jsonSchema.additionalProperties;
    },
  }) as Record<string, unknown>;
  return title ? { ...generated, title } : generated;
}

/**
 * Every JSON Schema a downstream consumer needs, by path under KAFKA_SCHEMA_DIR: the three
 * envelopes, and the data of each domain event type at its current schema version. Generated
 * from the zod schemas, so the documents cannot say something the code does not do; a test
 * fails when the committed files drift (`npm run kafka:schemas` rewrites them).
 */
export function kafkaJsonSchemas(): Map<string, Record<string, unknown>> {
  const files = new Map<string, Record<string, unknown>>([
    ['envelopes/domain-event.v1.json', jsonSchema(DomainEventEnvelopeV1)],
    ['envelopes/message-event.v1.json', jsonSchema(MessageEventEnvelopeV1)],
    ['envelopes/workflow-run-event.v1.json', jsonSchema(WorkflowRunEventEnvelopeV1)],
    ['envelopes/run-work.v1.json', jsonSchema(RunWorkV1)],
  ]);
  const contracts = [...eventContracts.values()].sort((a, b) => a.type.localeCompare(b.type));
  for (const contract of contracts)
    files.set(`events/${contract.type}.v${contract.version}.json`, jsonSchema(contract.data, `${contract.type} v${contract.version}`));
  return files;
}

/** The exact text committed for a schema (stable key order as generated, trailing newline). */
export function schemaFileText(schema: Record<string, unknown>): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
