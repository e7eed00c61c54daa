import { Module } from '@nestjs/common';
import { DeleteObjectController } from './delete-object/delete-object.controller';
import { DeleteObjectHandler } from './delete-object/delete-object.handler';
import { GetObjectController } from './get-object/get-object.controller';
import { GetObjectHandler } from './get-object/get-object.handler';
import { ListObjectsController } from './list-objects/list-objects.controller';
import { ListObjectsHandler } from './list-objects/list-objects.handler';
import { SetObjectController } from './set-object/set-object.controller';
import { SetObjectHandler } from './set-object/set-object.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

@Module({
  imports: [RecipientReadModelsModule],
  controllers: [SetObjectController, GetObjectController, DeleteObjectController, ListObjectsController],
  providers: [SetObjectHandler, GetObjectHandler, DeleteObjectHandler, ListObjectsHandler],
})
export class ObjectsModule {}
