import { Command } from '@nestjs/cqrs';
import { CommandMetadata } from '@notify/application';

export class IngestSourceEventCommand extends Command<{ log_id: string; status: 'accepted' | 'duplicate' }> {
  constructor(
    readonly environment: string,
    readonly key: string,
    readonly presentedKey: string | null,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string>,
    readonly metadata: CommandMetadata,
  ) {
    super();
  }
}
