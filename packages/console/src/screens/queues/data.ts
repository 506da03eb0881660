import { useQuery } from '@tanstack/react-query';
import { must } from '../../api/client.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';

/** The company's queues (`GET /queue`), refetched by `queue` frames. */
export function useQueues() {
  const { api } = useServices();
  return useQuery({ queryKey: keys.queues, queryFn: () => must(api.GET('/queue')) });
}

/** The company's users, for a queue's operators and a menu's hand-over (under `users`: user frames refetch it). */
export function useUserNames() {
  const { api } = useServices();
  return useQuery({ queryKey: [...keys.users, 'names'], queryFn: () => must(api.GET('/users/list', { params: { query: {} } })) });
}
