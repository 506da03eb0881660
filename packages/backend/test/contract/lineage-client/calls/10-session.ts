import type { ClientCalls } from '../client-call.js';

/** Logging in and staying logged in (hooks/useAuth, pages/Login, App). */
export default {
  area: 'session',
  calls: [
    {
      page: 'hooks/useAuth (login)', method: 'POST', path: '/auth/login', as: 'public',
      body: { email: 'carla@desk.test', password: 'admin-pass-123' },
      reads: ['token', 'user.id', 'user.companyId', 'user.company.id', 'user.company.dueDate', 'user.profile', 'user.queues', 'user.allUserChat'],
    },
  ],
} satisfies ClientCalls;
