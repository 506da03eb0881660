import { localParts } from '../shared/zoned-time.js';

/** What a scheduled text may name (the lineage's `{{…}}` variables, which its message editor offers). */
export interface MessageFacts {
  readonly contactName: string;
  readonly userName: string;
  readonly ticketId: number;
  readonly queueName: string;
  readonly connectionName: string;
  readonly companyName: string;
  readonly at: Date;
  readonly timeZone: string;
}

const two = (n: number) => String(n).padStart(2, '0');

/** The lineage's greeting by the hour: from 6 good morning, after 11 good afternoon, after 17 good evening, after 23 (or before 6) good night. */
function greeting(hour: number): string {
  if (hour < 6 || hour > 23) return 'Boa madrugada';
  if (hour > 17) return 'Boa noite';
  if (hour > 11) return 'Boa tarde';
  return 'Bom dia';
}

/**
 * `{{firstName}}`, `{{name}}`, `{{userName}}`, `{{ms}}`, `{{hour}}`, `{{date}}`, `{{data_hora}}`,
 * `{{ticket_id}}`, `{{protocol}}`, `{{queue}}`, `{{connection}}` and `{{name_company}}` replaced by
 * their values at the send, on the company's clock; any other `{{…}}` is left as written.
 */
export function renderMessage(text: string, f: MessageFacts): string {
  const p = localParts(f.at, f.timeZone);
  const hour = `${Math.floor(p.minute / 60)}:${two(p.minute % 60)}:${two(p.second)}`;
  const date = `${two(p.day)}-${two(p.month)}-${p.year}`;
  const values: Record<string, string> = {
    firstname: f.contactName.trim().split(/\s+/)[0] ?? '',
    name: f.contactName,
    username: f.userName,
    ms: greeting(Math.floor(p.minute / 60)),
    hour,
    date,
    data_hora: `${date} às ${hour}`,
    ticket_id: String(f.ticketId),
    protocol: `${p.year}${two(p.month)}${two(p.day)}${two(p.minute % 60)}${two(p.second)}${f.ticketId}`,
    queue: f.queueName,
    connection: f.connectionName,
    name_company: f.companyName,
  };
  return text.replace(/\{\{\s*([A-Za-z_]{1,32})\s*\}\}/g, (whole, key: string) => values[key.toLowerCase()] ?? whole);
}
