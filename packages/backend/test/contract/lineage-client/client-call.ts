/**
 * The lineage's React client as a contract: one entry per call it makes to a route we implement,
 * written from reading that client (what it sends, what it reads back), replayed against the real
 * server by `lineage-client.test.ts`. Names follow the README's naming rule: where the client says
 * a brand word (`whatsappId`, `company-1-whatsapp`) the entry says the neutral one (`chatappId`,
 * `company-1-chatapp`); everything else is the client's own name and shape.
 */

/** Named values a path, query or body refers to as `:name` (`:ticketId`) or receives as a function argument. */
export type Params = Readonly<Record<string, string | number>>;

/** Who makes the call: the platform's super admin, a company admin, an operator (`user` profile), or nobody. */
export type Caller = 'super' | 'admin' | 'user' | 'public';

export interface UploadedFile {
  readonly field: string;
  readonly name: string;
  readonly type: string;
  readonly content: Uint8Array | string;
}

export interface ExpectedEvent {
  /** The entity after `company-<companyId>-` (`ticket`, `appMessage`, `chatapp`…), with `:name` for fixture values (`chat-user-:adminId`). */
  readonly event: string;
  /** The whole event name instead, for the lineage's names without a company (`company-announcement`). */
  readonly name?: string;
  /** The `action` the client switches on, when it does. */
  readonly action?: string;
  /** The fields of the event's data the client reads (same syntax as `reads`). */
  readonly reads: readonly string[];
}

export interface ClientCall {
  /** The page or component of the client that makes the call (as named in its source tree). */
  readonly page: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The path as the client writes it, with `:name` for ids taken from the fixture (`/tickets/:ticketId`). */
  readonly path: string;
  readonly as?: Caller;
  /** Query parameters as the client's axios serialises them (arrays become `key[]=a&key[]=b`). */
  readonly query?: Readonly<Record<string, unknown>> | ((p: Params) => Readonly<Record<string, unknown>>);
  /** The JSON body the client sends. */
  readonly body?: unknown | ((p: Params) => unknown);
  /** Headers beyond the caller's token (`Authorization: Bearer <connection token>` for the official API). */
  readonly headers?: Readonly<Record<string, string>> | ((p: Params) => Readonly<Record<string, string>>);
  /** A multipart body instead: text fields (or a function of the fixture's values giving them) and files. */
  readonly form?: {
    readonly fields?: Readonly<Record<string, string>> | ((p: Params) => Readonly<Record<string, string>>);
    readonly files?: readonly UploadedFile[];
  };
  /** Creates what the call consumes (something to delete, a ticket to close) and names it for the path and body. */
  readonly setup?: (p: Params, api: CallerApis) => Promise<Params>;
  /** Expected status; any 2xx when absent. */
  readonly status?: number;
  /** What the client does with the answer when it is not an object: `string` (a bare value), `array`, `empty` (no body). */
  readonly returns?: 'object' | 'array' | 'string' | 'empty';
  /**
   * The response fields the client reads: dotted paths (`user.company.id`); `[]` steps into every
   * element of an array, which must not be empty (`tickets[].contact.name`, `[].id` for a bare array).
   * A field must be present; it may be null where the client copes with null.
   */
  readonly reads?: readonly string[];
  /** Realtime events the client listens for that the call must cause, on the company's socket.io namespace. */
  readonly emits?: readonly ExpectedEvent[];
  /** Why the entry is there when it is not obvious (a field the client relies on, an error it shows). */
  readonly note?: string;
}

/** A file of entries: the calls of a few pages, and the fixture they need beyond the shared one. */
export interface ClientCalls {
  readonly area: string;
  /** Adds named values to the shared fixture (runs once, in file order, before any call). */
  readonly prepare?: (p: Params, api: CallerApis) => Promise<Params>;
  readonly calls: readonly ClientCall[];
}

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

export interface CallerApi {
  get(url: string, headers?: Record<string, string>): Promise<Reply>;
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  put(url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  delete(url: string, headers?: Record<string, string>): Promise<Reply>;
  call(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
}

export type CallerApis = Readonly<Record<Caller, CallerApi>> & {
  /** A contact writes in through the sandbox connection; resolves with its ticket as the admin sees it. */
  readonly inbound: (from: string, body: string, extra?: { providerMessageId?: string; senderName?: string }) => Promise<Record<string, any>>;
};
