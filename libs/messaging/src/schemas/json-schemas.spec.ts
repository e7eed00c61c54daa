import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { KAFKA_SCHEMA_DIR, kafkaJsonSchemas, schemaFileText } from './json-schemas';

const dir = path.resolve(__dirname, '../../../..', KAFKA_SCHEMA_DIR);
const fix = "out of date: run 'npm run kafka:schemas' and commit docs/kafka/schemas";

describe('committed Kafka JSON Schemas', () => {
  const generated = kafkaJsonSchemas();

  it.each([...generated.keys()])('%s matches the zod schema', (file) => {
    let committed: string | undefined;
    try {
      committed = readFileSync(path.join(dir, file), 'utf8');
    } catch {
      committed = undefined;
    }
    if (committed !== schemaFileText(generated.get(file)!))
      throw new Error(`${file} ${committed === undefined ? 'is missing' : 'differs'}; ${fix}`);
  });

  it('has no schema file that is no longer generated', () => {
    const committed = ['envelopes', 'events'].flatMap((sub) => readdirSync(path.join(dir, sub)).map((f) => `${sub}/${f}`));
    expect(committed.filter((f) => !generated.has(f))).toEqual([]);
  });

  it('covers every envelope and every registered event type', () => {
    expect([...generated.keys()].filter((f) => f.startsWith('envelopes/'))).toEqual([
      'envelopes/domain-event.v1.json',
      'envelopes/message-event.v1.json',
      'envelopes/workflow-run-event.v1.json',
      'envelopes/run-work.v1.json',
    ]);
    expect(generated.has('events/UserIdentified.v1.json')).toBe(true);
  });

  it('publishes tolerant schemas: objects accept fields added later in a version', () => {
    const text = [...generated.values()].map((s) => JSON.stringify(s)).join('\n');
    expect(text).not.toContain('"additionalProperties":false');
  });
});
