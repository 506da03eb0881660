import { createHmac, randomBytes } from 'node:crypto';
import { api } from './http.js';
import { until } from './proc.js';
import { META_APP_SECRET, type Target } from './target.js';

/** A token unique to this run (connection tokens are unique across the platform). */
export const uniqueToken = (label: string) => `bench-${label}-${randomBytes(12).toString('hex')}`;

/** Raises the limits of the plans so that 100 sessions and the tenant's operators fit. */
export async function roomyPlans(target: Target): Promise<void> {
  const client = api(target.baseUrl, target.token);
  const plans = await client.get<Array<{ id: number }>>('/plans/all');
  for (const plan of plans) await client.put(`/plans/${plan.id}`, { users: 10_000, connections: 10_000, queues: 10_000 });
}

/** A sandbox session connection (`POST /chatapp/`) that has reached CONNECTED. */
export async function connectedSandbox(target: Target, name: string, token: string, bearer = target.token): Promise<number> {
  const client = api(target.baseUrl, bearer);
  const created = await client.post<{ id: number }>('/chatapp/', { name, provider: 'sandbox', token });
  await until(`${name} to connect`, async () => (await client.get<{ status: string }>(`/chatapp/${created.id}`)).status === 'CONNECTED', 60_000, 100);
  return created.id;
}

/** A Messenger delivery of one text message, as Meta posts it to `/webhook/`. */
export function messengerDelivery(pageId: string, sender: string, mid: string, text: string): string {
  const time = Date.now();
  return JSON.stringify({
    object: 'page',
    entry: [{ id: pageId, time, messaging: [{ sender: { id: sender }, recipient: { id: pageId }, timestamp: time, message: { mid, text } }] }],
  });
}

export const metaSignature = (body: string) => `sha256=${createHmac('sha256', META_APP_SECRET).update(body).digest('hex')}`;

/** Brazilian mobile numbers, one per contact index. */
export const mobile = (i: number) => `55119${String(10_000_000 + i).slice(-8)}`;
