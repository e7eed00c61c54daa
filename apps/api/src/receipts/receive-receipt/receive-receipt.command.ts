import { Command } from '@nestjs/cqrs';
import type { CommandMetadata, ReceiptInput, ReceiptOutcome } from '@notify/application';

export class ReceiveReceiptCommand extends Command<ReceiptOutcome> {
  constructor(
    readonly input: ReceiptInput,
    readonly metadata: CommandMetadata,
  ) {
    super();
  }
}
