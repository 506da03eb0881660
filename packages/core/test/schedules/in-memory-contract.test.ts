import { InMemoryScheduleDeliveries, InMemoryScheduleOccurrences, InMemorySchedules } from '../../src/schedules/in-memory-schedules.js';
import { describeSchedulesContract } from '../contracts/schedules-contract.js';

describeSchedulesContract('in-memory', async () => {
  const occurrences = new InMemoryScheduleOccurrences();
  const deliveries = new InMemoryScheduleDeliveries();
  const names = new Map<number, string>();
  let nextId = 1;
  return {
    schedules: new InMemorySchedules(occurrences, deliveries, async (_companyId, id) => names.get(id) ?? null),
    occurrences,
    deliveries,
    seed: {
      company: async () => nextId++,
      async contact(_companyId, name) {
        const id = nextId++;
        names.set(id, name);
        return id;
      },
    },
  };
});
