import createClient from 'openapi-fetch';
import type { Session } from '../session/session.js';
import type { components, operations, paths } from './schema.gen.js';

export type { components, operations, paths };
/** A schema of the backend's OpenAPI document by name (`Schema<'TicketDetails'>`). */
export type Schema<K extends keyof components['schemas']> = components['schemas'][K];

/** An answer the server refused: its status and `error` code (and `fields` when it names them). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly fields?: Record<string, unknown>,
  ) {
    super(code);
  }
}

/**
 * `fetch` with the session's access token; a 401 refreshes the token once (shared by every
 * request that met it) and retries, and the session ends when the refresh is refused. `transport`
 * replaces `fetch` for one request (an upload that reports its progress).
 */
export function authedFetch(session: Session, transport: (request: Request) => Promise<Response> = (r) => fetch(r, { credentials: 'include' } as RequestInit)) {
  return async (input: Request): Promise<Response> => {
    const attempt = (token: string | null) => {
      const request = input.clone();
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      return transport(request);
    };
    const token = session.current?.token ?? null;
    const response = await attempt(token);
    if (response.status !== 401 || !token) return response;
    const fresh = await session.renewAfter(token);
    return fresh ? attempt(fresh) : response;
  };
}

export type Api = ReturnType<typeof createApi>;

export function createApi(baseUrl: string, session: Session) {
  return createClient<paths>({ baseUrl, fetch: authedFetch(session), credentials: 'include' });
}

/** The data of an openapi-fetch answer, or its refusal thrown as an ApiError. */
export async function must<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = (error ?? {}) as { error?: string; fields?: Record<string, unknown> };
  throw new ApiError(response.status, body.error ?? `HTTP_${response.status}`, body.fields);
}
