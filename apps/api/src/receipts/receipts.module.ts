import { Module } from '@nestjs/common';
import { SnsCertificates } from '@notify/application';
import { AppConfig, APP_CONFIG } from '@notify/config';
import { Database } from '@notify/database';
import { defaultReceiptSources, ReceiptSourceRegistry } from '@notify/delivery';
import { DATABASE } from '@notify/platform';
import { MessageProviderIdQueries } from '@notify/projections/message-receipts';
import { SuppressionQueries } from '@notify/projections/suppressions';
import { ReceiveReceiptController } from './receive-receipt/receive-receipt.controller';
import { ReceiveReceiptHandler } from './receive-receipt/receive-receipt.handler';
import { SuppressionsController } from './suppressions/suppressions.controller';
import { SuppressionsService } from './suppressions/suppressions.service';

/** Delivery receipts from providers' webhooks, and the suppression list they feed (ADR 0203, 0204). */
@Module({
  controllers: [ReceiveReceiptController, SuppressionsController],
  providers: [
    { provide: ReceiptSourceRegistry, useFactory: defaultReceiptSources },
    {
      provide: SnsCertificates,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new SnsCertificates(config.SNS_CERTIFICATE_ORIGINS),
    },
    { provide: MessageProviderIdQueries, inject: [DATABASE], useFactory: (db: Database) => new MessageProviderIdQueries(db.dataSource) },
    { provide: SuppressionQueries, inject: [DATABASE], useFactory: (db: Database) => new SuppressionQueries(db.dataSource) },
    ReceiveReceiptHandler,
    SuppressionsService,
  ],
})
export class ReceiptsModule {}
