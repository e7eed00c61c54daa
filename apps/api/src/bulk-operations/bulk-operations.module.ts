import { Module } from '@nestjs/common';
import { CreateBulkOperationController } from './create-bulk-operation/create-bulk-operation.controller';
import { CreateBulkOperationHandler } from './create-bulk-operation/create-bulk-operation.handler';
import { GetBulkOperationController } from './get-bulk-operation/get-bulk-operation.controller';
import { GetBulkOperationHandler } from './get-bulk-operation/get-bulk-operation.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

@Module({
  imports: [RecipientReadModelsModule],
  controllers: [CreateBulkOperationController, GetBulkOperationController],
  providers: [CreateBulkOperationHandler, GetBulkOperationHandler],
})
export class BulkOperationsModule {}
