/**
 * Where the backend is. Hosted by the backend itself (the default), the console talks to its own
 * origin. Hosted apart, `REACT_APP_BACKEND_URL` (the spec's variable) is read at build time, and a
 * `config.json` beside index.html (`{ "backendUrl": "https://…" }`) overrides it at run time.
 */
export interface AppConfig {
  readonly backendUrl: string;
}

export async function loadConfig(): Promise<AppConfig> {
  const built = (import.meta.env.REACT_APP_BACKEND_URL as string | undefined) ?? '';
  let backendUrl = built || window.location.origin;
  try {
    const res = await fetch(`${import.meta.env.BASE_URL}config.json`, { cache: 'no-store' });
    if (res.ok) {
      const json = (await res.json()) as { backendUrl?: unknown };
      if (typeof json.backendUrl === 'string' && json.backendUrl) backendUrl = json.backendUrl;
    }
  } catch {
    /* no config.json: the build's value or the origin */
  }
  return { backendUrl: backendUrl.replace(/\/+$/, '') };
}
