import { z } from 'zod';
import { RecipientReference } from '../envelopes/recipient';

export const RUN_WORK_ENVELOPE_V1 = 'notify.run-work.v1';

/**
 * Value of every record on `<prefix>run-work.v1`, the engine's internal work queue: "execute
 * this recipient run", because something happened to it (enqueued, a timer fired, resumed).
 * Key: recipientKey(environment, recipient), so one worker of the consumer group owns each
 * recipient. The run itself is read from the log; the record only says which one.
 */
export const RunWorkV1 = z
  .object({
    environment: z.string(),
    run_id: z.uuid(),
    recipient: RecipientReference,
    cause: z.object({
      event_id: z.uuid(),
      event_type: z.string(),
      stream_id: z.string(),
      revision: z.number().int().min(0),
      global_position: z.string(),
    }),
  })
  .loose()
  .meta({
    title: 'RunWorkV1',
    description: 'A recipient run to execute (topic <prefix>run-work.v1, key = recipient; internal to the engine)',
  });

export type RunWorkV1 = z.infer<typeof RunWorkV1>;
