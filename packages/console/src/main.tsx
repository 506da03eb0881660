import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadConfig } from './app-config.js';
import { initI18n } from './i18n/index.js';
import { router } from './router.js';
import { dashboardScreen } from './screens/preload.js';
import { createServices, ServicesContext } from './services.js';
import { applyTheme, currentTheme } from './ui/theme.js';
import './styles.css';

applyTheme(currentTheme(), false);
// Opened on the dashboard (a reload, a bookmark): its code is fetched beside the config and the
// session's refresh rather than after them, and its first figures asked as soon as the session is known.
const onDashboard = window.location.pathname.replace(/\/+$/, '') === `${import.meta.env.BASE_URL}dashboard`;
// Loaded through its preloadable screen, it renders at once when its route comes (no suspense, no reveal delay).
if (onDashboard) dashboardScreen.load().catch(() => undefined);
const dashboard = onDashboard ? import('./screens/dashboard/dashboard.js') : null;
const [config] = await Promise.all([loadConfig(), initI18n()]);
const services = createServices(config);
// A reload keeps the session through the refresh cookie; without it, the sign-in page.
await services.session.refresh();
dashboard?.then((m) => m.prefetchDashboard(services)).catch(() => undefined);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ServicesContext.Provider value={services}>
      <QueryClientProvider client={services.queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </ServicesContext.Provider>
  </StrictMode>,
);
