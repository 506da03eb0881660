import { type ComponentType, lazy } from 'react';

/**
 * A screen loaded with its own code when first shown, which can also be fetched ahead (`load`):
 * once its code is here it renders at once instead of suspending, so React does not hold the
 * reveal back (it throttles revealing suspended content by some 300 ms).
 */
export function preloadable<P extends object>(factory: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const load = () => {
    pending ??= factory().then((component) => {
      loaded = component;
      return component;
    });
    return pending;
  };
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: made once per screen at module level, never during a render
  function Screen(props: P) {
    const Loaded = loaded;
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return { load, Screen };
}

/** The dashboard: fetched beside the config when the console is opened on it (main.tsx), so its first chart is not held back. */
export const dashboardScreen = preloadable(() => import('./dashboard/dashboard.js').then((m) => m.Dashboard));

/** The inbox: what a sign-in opens, fetched while the sign-in page is shown. */
export const inboxScreen = preloadable(() => import('./inbox.js').then((m) => m.Inbox));
