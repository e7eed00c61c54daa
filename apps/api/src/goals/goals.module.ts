import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { GoalQueries } from '@notify/projections/goals';
import { goalHandlers } from './goal.handlers';
import { GoalsController } from './goals.controller';

/** Goals and their conversion counts (ADR 0196); conversions themselves come from source events (SourcesModule). */
@Module({
  controllers: [GoalsController],
  providers: [{ provide: GoalQueries, inject: [DATABASE], useFactory: (db: Database) => new GoalQueries(db.dataSource) }, ...goalHandlers],
})
export class GoalsModule {}
