import { CommandMetadata } from '@notify/application';
import { RequestContext } from '@notify/http';

/** Who did it and in answer to which request: recorded on every event a request appends. */
export function commandMetadata(ctx: RequestContext): CommandMetadata {
  return {
    environment: ctx.environment,
    request_id: ctx.requestId,
    correlation_id: ctx.requestId,
    actor: `${ctx.credential.kind}:${ctx.credential.id}`,
    ...ctx.trace,
  };
}
