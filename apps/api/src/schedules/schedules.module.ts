import { Module } from '@nestjs/common';
import { RecipientExistence } from '../recipients/recipient-exists';
import { CreateSchedulesController } from './create-schedules/create-schedules.controller';
import { CreateSchedulesHandler } from './create-schedules/create-schedules.handler';
import { DeleteSchedulesController } from './delete-schedules/delete-schedules.controller';
import { DeleteSchedulesHandler } from './delete-schedules/delete-schedules.handler';
import { ListSchedulesController } from './list-schedules/list-schedules.controller';
import { ListSchedulesHandler } from './list-schedules/list-schedules.handler';
import { PreviewScheduleController } from './preview-schedule/preview-schedule.controller';
import { PreviewScheduleHandler } from './preview-schedule/preview-schedule.handler';
import { scheduleProviders } from './schedule-deps';
import { UpdateSchedulesController } from './update-schedules/update-schedules.controller';
import { UpdateSchedulesHandler } from './update-schedules/update-schedules.handler';
import { RecipientReadModelsModule } from '../recipients/recipient-read-models.module';

/** Schedules: recurring (or one-off) workflow triggers per recipient; the worker fires them. */
@Module({
  imports: [RecipientReadModelsModule],
  controllers: [
    CreateSchedulesController,
    UpdateSchedulesController,
    DeleteSchedulesController,
    ListSchedulesController,
    PreviewScheduleController,
  ],
  providers: [
    ...scheduleProviders,
    CreateSchedulesHandler,
    UpdateSchedulesHandler,
    DeleteSchedulesHandler,
    ListSchedulesHandler,
    PreviewScheduleHandler,
    RecipientExistence,
  ],
})
export class SchedulesModule {}
