import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import { intervalCodeOf, weekendCodeOf } from './recurrence.js';
import type { Schedule, ScheduleOccurrence, ScheduleStatus } from './schedule.js';

export interface NamedRef {
  readonly id: number;
  readonly name: string;
}

/** One occurrence as the API shows it. */
export interface OccurrenceView {
  readonly id: number;
  readonly sequence: number;
  readonly dueAt: string;
  readonly status: ScheduleOccurrence['status'];
  readonly recipients: number;
  readonly sent: number;
  readonly failed: number;
  readonly failureReason: string | null;
  readonly settledAt: string | null;
}

/** The recurrence and outcome fields both kinds show (in the lineage's names where it has them). */
interface CommonView {
  readonly id: number;
  readonly companyId: number;
  readonly status: ScheduleStatus;
  readonly sentAt: string | null;
  readonly contadorEnvio: number;
  /** Ours: the end date of the recurrence (null: none). */
  readonly repeatUntil: string | null;
  /** Ours: why the last occurrence failed (a catalog code). */
  readonly lastError: string | null;
  readonly mediaPath: string | null;
  readonly mediaName: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * A contact schedule as `/schedules` and the `schedule` frames show it: the lineage's fields (the
 * connection under the neutral `chatappId`/`chatapp`) with the names of what it points at.
 */
export interface ScheduleView extends CommonView {
  readonly body: string;
  readonly sendAt: string;
  readonly contactId: number | null;
  readonly ticketId: number | null;
  readonly userId: number | null;
  readonly ticketUserId: number | null;
  readonly queueId: number | null;
  readonly chatappId: number | null;
  readonly statusTicket: Schedule['statusTicket'];
  readonly openTicket: 'enabled' | 'disabled';
  readonly intervalo: number;
  readonly valorIntervalo: number;
  readonly enviarQuantasVezes: number;
  readonly tipoDias: number;
  readonly assinar: boolean;
  readonly contact: (NamedRef & { readonly number: string; readonly urlPicture: string }) | null;
  readonly user: NamedRef | null;
  readonly ticketUser: NamedRef | null;
  readonly chatapp: (NamedRef & { readonly channel: string }) | null;
  readonly queue: NamedRef | null;
}

/** A scheduled message (bulk) as `/schedules-message` shows it: the lineage's snake_case fields, ids as numbers. */
export interface ScheduledMessageView extends CommonView {
  readonly nome: string;
  readonly mensagem: string;
  readonly data_mensagem_programada: string;
  readonly id_conexao: number | null;
  readonly intervalo: number;
  readonly valor_intervalo: number;
  readonly enviar_quantas_vezes: number;
  readonly tipo_dias_envio: number;
  readonly mostrar_usuario_mensagem: boolean;
  readonly criar_ticket: boolean;
  readonly contatos: number[];
  readonly tags: number[];
  readonly usuario_envio: number | null;
  readonly tipo_arquivo: string | null;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function occurrenceView(o: ScheduleOccurrence): OccurrenceView {
  return {
    id: o.id,
    sequence: o.sequence,
    dueAt: o.dueAt.toISOString(),
    status: o.status,
    recipients: o.recipients,
    sent: o.sent,
    failed: o.failed,
    failureReason: o.failureReason,
    settledAt: iso(o.settledAt),
  };
}

function common(s: Schedule): CommonView {
  return {
    id: s.id,
    companyId: s.companyId,
    status: s.status,
    sentAt: iso(s.sentAt),
    contadorEnvio: s.sentCount,
    repeatUntil: iso(s.recurrence.until),
    lastError: s.lastError,
    mediaPath: s.media?.path ?? null,
    mediaName: s.media?.name ?? null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** The lineage's recurrence numbers: no recurrence is interval 0 (the unit then says days). */
function recurrenceCodes(s: Schedule) {
  const r = s.recurrence;
  const repeats = r.frequency !== 'none';
  return { intervalo: repeats ? intervalCodeOf(r.frequency) : 1, valor: repeats ? r.every : 0, vezes: repeats ? r.count : 1, dias: weekendCodeOf(r.weekend) };
}

export function scheduledMessageView(s: Schedule): ScheduledMessageView {
  const codes = recurrenceCodes(s);
  return {
    ...common(s),
    nome: s.name ?? '',
    mensagem: s.body,
    data_mensagem_programada: s.sendAt.toISOString(),
    id_conexao: s.connectionId,
    intervalo: codes.intervalo,
    valor_intervalo: codes.valor,
    enviar_quantas_vezes: codes.vezes,
    tipo_dias_envio: codes.dias,
    mostrar_usuario_mensagem: s.sign,
    criar_ticket: s.openTicket,
    contatos: [...s.contactIds],
    tags: [...s.tagIds],
    usuario_envio: s.signUserId,
    tipo_arquivo: s.media?.contentType ?? null,
  };
}

/** Builds contact schedules' views, reading what they point at once per page. */
export class ScheduleViews {
  constructor(private readonly deps: { contacts: Contacts; users: Users; connections: Connections; queues: Queues }) {}

  async view(schedule: Schedule): Promise<ScheduleView> {
    return (await this.views(schedule.companyId, [schedule]))[0]!;
  }

  async views(companyId: number, schedules: readonly Schedule[]): Promise<ScheduleView[]> {
    const { contacts, users, connections, queues } = this.deps;
    const distinct = (ids: Array<number | null>) => [...new Set(ids.filter((id): id is number => id !== null))];
    const contactRows = await contacts.findByIds(companyId, distinct(schedules.map((s) => s.contactId)));
    const contactById = new Map(contactRows.map((c) => [c.id, c]));
    const userNames = new Map<number, string>();
    for (const id of distinct(schedules.flatMap((s) => [s.userId, s.ticketUserId]))) {
      const user = await users.findById(companyId, id);
      if (user) userNames.set(id, user.name);
    }
    const connectionById = new Map<number, { name: string; channel: string }>();
    for (const id of distinct(schedules.map((s) => s.connectionId))) {
      const c = await connections.findById(companyId, id);
      if (c) connectionById.set(id, { name: c.name, channel: c.kind });
    }
    const queueNames = new Map((await queues.findByIds(companyId, distinct(schedules.map((s) => s.queueId)))).map((q) => [q.id, q.name]));
    const named = (names: Map<number, string>, id: number | null): NamedRef | null => (id !== null && names.has(id) ? { id, name: names.get(id)! } : null);
    return schedules.map((s) => {
      const codes = recurrenceCodes(s);
      const contact = s.contactId === null ? undefined : contactById.get(s.contactId);
      const connection = s.connectionId === null ? undefined : connectionById.get(s.connectionId);
      return {
        ...common(s),
        body: s.body,
        sendAt: s.sendAt.toISOString(),
        contactId: s.contactId,
        ticketId: s.ticketId,
        userId: s.userId,
        ticketUserId: s.ticketUserId,
        queueId: s.queueId,
        chatappId: s.connectionId,
        statusTicket: s.statusTicket,
        openTicket: s.openTicket ? 'enabled' : 'disabled',
        intervalo: codes.intervalo,
        valorIntervalo: codes.valor,
        enviarQuantasVezes: codes.vezes,
        tipoDias: codes.dias,
        assinar: s.sign,
        contact: contact ? { id: contact.id, name: contact.name, number: contact.number, urlPicture: contact.profilePicUrl ?? '' } : null,
        user: named(userNames, s.userId),
        ticketUser: named(userNames, s.ticketUserId),
        chatapp: connection ? { id: s.connectionId!, name: connection.name, channel: connection.channel } : null,
        queue: named(queueNames, s.queueId),
      };
    });
  }
}
