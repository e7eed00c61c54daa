import { Module } from '@nestjs/common';
import { Database } from '@notify/database';
import { DATABASE } from '@notify/platform';
import { TagQueries } from '@notify/projections/tags';
import { DeleteTagController } from './delete-tag/delete-tag.controller';
import { DeleteTagHandler } from './delete-tag/delete-tag.handler';
import { ListTagsController } from './list-tags/list-tags.controller';
import { ListTagsHandler } from './list-tags/list-tags.handler';
import { UpsertTagController } from './upsert-tag/upsert-tag.controller';
import { UpsertTagHandler } from './upsert-tag/upsert-tag.handler';

/** The account's tag catalog (management API). */
@Module({
  controllers: [ListTagsController, UpsertTagController, DeleteTagController],
  providers: [
    { provide: TagQueries, inject: [DATABASE], useFactory: (db: Database) => new TagQueries(db.dataSource) },
    ListTagsHandler,
    UpsertTagHandler,
    DeleteTagHandler,
  ],
})
export class TagsModule {}
