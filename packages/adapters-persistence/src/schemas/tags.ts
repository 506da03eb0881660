import { EntitySchema } from '@mikro-orm/core';
import type { Tag } from '@servicedesk/core';

/** Tags only: `ticket_tags` and `contact_tags` are plain join tables written with SQL. */
export const TagSchema = new EntitySchema<Tag>({
  name: 'Tag',
  tableName: 'tags',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    name: { type: 'string' },
    color: { type: 'string' },
    kanban: { type: 'boolean' },
    laneOrder: { type: 'number' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});
