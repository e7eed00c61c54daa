import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EngineLookups, recordDeliveryReceipts, SnsCertificates } from '@notify/application';
import { ReceiptSourceRegistry } from '@notify/delivery';
import { EventStore } from '@notify/eventstore';
import { ENGINE_LOOKUPS, EVENT_STORE } from '@notify/platform';
import { MessageProviderIdQueries } from '@notify/projections/message-receipts';
import { ReceiveReceiptCommand } from './receive-receipt.command';

/** Answers once every provider event of the request is recorded (or known already). */
@CommandHandler(ReceiveReceiptCommand)
export class ReceiveReceiptHandler implements ICommandHandler<ReceiveReceiptCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    private readonly sources: ReceiptSourceRegistry,
    private readonly providerIds: MessageProviderIdQueries,
    private readonly sns: SnsCertificates,
  ) {}

  execute({ input, metadata }: ReceiveReceiptCommand) {
    return recordDeliveryReceipts(
      {
        store: this.store,
        lookups: this.lookups,
        sources: this.sources,
        messageIdOf: (environment, id) => this.providerIds.messageId(environment, id),
        certificate: this.sns.certificate,
        confirmSubscription: this.sns.confirmSubscription,
      },
      input,
      metadata,
    );
  }
}
