import { TagT } from '@notify/contracts';
import { TagRecord } from '@notify/projections/tags';

export function presentTag(tag: TagRecord): TagT {
  return {
    name: tag.name,
    description: tag.description,
    color: tag.color,
    created_at: new Date(tag.created_at).toISOString(),
    updated_at: new Date(tag.updated_at).toISOString(),
  };
}
