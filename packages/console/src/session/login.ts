/**
 * `POST /auth/login` with the e-mail and password, sent with the cookies so the answer's refresh
 * cookie is kept. Not through the typed client: its answer is read by status (a 401, a 429 with its
 * `Retry-After`, a suspended company), and a network failure is the caller's to word. Rejects only
 * when the server cannot be reached.
 */
export function postLogin(backendUrl: string, email: string, password: string): Promise<Response> {
  return fetch(`${backendUrl}/auth/login`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
}
