import type { MikroORM } from '@mikro-orm/core';
import { MikroOrmSchedules } from './schedules-repository.js';
import { MikroOrmScheduleOccurrences } from './schedule-occurrences-repository.js';
import { MikroOrmScheduleDeliveries } from './schedule-deliveries-repository.js';

/** The schedule ports over one ORM: what the backend's schedules feature provides. */
export const schedulesRepositories = (orm: MikroORM) => ({
  schedules: new MikroOrmSchedules(orm),
  scheduleOccurrences: new MikroOrmScheduleOccurrences(orm),
  scheduleDeliveries: new MikroOrmScheduleDeliveries(orm),
});
