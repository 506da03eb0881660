import type { ErrorKind } from './errors.js';

/** What the catalog says about one code. */
export interface ErrorCodeEntry {
  /**
   * The kind an error with this code is thrown as, which every transport maps to its status
   * (HTTP: the error middleware's table). Two kinds when two places throw it differently. A code
   * never answered (`where` without `answer`) has the kind it would be answered with.
   */
  readonly kind: ErrorKind | readonly ErrorKind[];
  /** For an API user: what went wrong and what to do about it. */
  readonly description: string;
  /**
   * Where clients see the code, when not only in error answers `{ "error": code }` (`answer`): as
   * a failed message's `failureReason`, set by the channel runtime, or as a contact import's `error`.
   */
  readonly where?: readonly ErrorCodePlace[];
}

/**
 * Where a client sees a code: an error answer, a failed message's `failureReason`, a contact import's `error`
 * (or a product import's row error), a contact-list item's `validationError` (why its number check could not
 * run), a transcription job's or one of its messages' `error`, a contact's file that could not be fetched (`media.error`).
 */
export type ErrorCodePlace = 'answer' | 'failureReason' | 'import' | 'numberCheck' | 'transcription' | 'media';

/**
 * Every stable `ERR_` code a client can see: in an error answer `{ "error": code }` (HTTP and the
 * realtime handshake), as a failed message's `failureReason`, or as a contact import's `error`
 * (which may hold any code an import's work threw).
 * `DomainError` and `HttpError` take an `ErrorCode`, so a code missing here does not compile; the
 * tests check that every entry is still used and that each throw site's class has a listed kind.
 */
export const ERROR_CODES = {
  // ── The HTTP layer itself (adapters-http: routing, body reading, schema validation) ──
  ERR_VALIDATION: { kind: 'validation', description: "The params, query or body do not fit the route's schema; `fields` lists each refused field and why." },
  ERR_ROUTE_NOT_FOUND: { kind: 'not-found', description: 'No route (or realtime namespace) has this path; check the URL against the reference.' },
  ERR_METHOD_NOT_ALLOWED: {
    kind: 'method-not-allowed',
    description: 'The path exists but not with this HTTP method; see the reference for the methods it takes.',
  },
  ERR_UNSUPPORTED_CONTENT_TYPE: {
    kind: 'unsupported-media-type',
    description: "The body's Content-Type is not one the route reads; send `application/json` (or `multipart/form-data` where files are taken).",
  },
  // ── Dependencies (the database, the cache, the broker) that do not answer ──
  ERR_DATABASE_UNAVAILABLE: {
    kind: 'unavailable',
    description: 'The database does not answer; try again later (`GET /debug-queues` shows which dependency is down).',
  },
  ERR_CACHE_UNAVAILABLE: {
    kind: 'unavailable',
    description: 'The cache (Redis) does not answer, so logins, idempotency keys and realtime numbering wait for it; try again later.',
  },
  ERR_BROKER_UNAVAILABLE: { kind: 'unavailable', description: 'The message broker (NATS) does not answer; sends wait in the outbox until it is back.' },
  ERR_INVALID_JSON: { kind: 'bad-request', description: 'The body is not valid JSON; fix the syntax and send it again.' },
  ERR_JSON_TOO_DEEP: { kind: 'bad-request', description: 'The JSON body nests objects and arrays more than 64 levels deep; flatten it.' },
  ERR_INVALID_MULTIPART: {
    kind: 'bad-request',
    description: 'The multipart body is malformed or lacks its boundary; send a well-formed `multipart/form-data` body.',
  },
  ERR_BODY_TOO_LARGE: { kind: 'too-large', description: "The body is over the route's size limit; send less data." },
  ERR_FIELD_TOO_LARGE: { kind: 'too-large', description: 'A multipart text field is over its size limit; shorten it.' },
  ERR_TOO_MANY_FILES: { kind: 'too-large', description: 'The multipart body has more files than the route accepts; send fewer.' },
  ERR_TOO_MANY_FIELDS: { kind: 'too-large', description: 'The multipart body has more fields than the route accepts; send fewer.' },
  ERR_UNEXPECTED_FILE_FIELD: {
    kind: 'validation',
    description: 'A file came in a multipart field the route does not read files from; use the documented file field.',
  },
  ERR_FILE_TOO_LARGE: {
    kind: ['too-large', 'validation'],
    description: "An uploaded or downloaded file is over its size limit (413; 422 on the message API's media); send a smaller file.",
  },
  ERR_INVALID_IDEMPOTENCY_KEY: {
    kind: 'validation',
    description: 'The Idempotency-Key header is over 200 characters or has characters outside printable ASCII; use a shorter, plain key.',
  },

  // ── Credentials, sessions and access ──
  ERR_SESSION_EXPIRED: {
    kind: 'unauthorized',
    description: 'The access token (or refresh session) is missing, invalid, expired or revoked; refresh it or log in again.',
  },
  ERR_INVALID_TOKEN: { kind: 'unauthorized', description: 'The token is not one this server issued for this use; log in again.' },
  ERR_REFRESH_TOKEN_REUSED: {
    kind: 'unauthorized',
    description: 'A refresh token that was already used was presented, so every session of the user was revoked; log in again.',
  },
  ERR_INVALID_CREDENTIALS: { kind: 'unauthorized', description: 'The e-mail or the password is wrong; check both and try again.' },
  ERR_TOO_MANY_RESET_REQUESTS: {
    kind: 'too-many-requests',
    description: 'Too many password-reset requests for this e-mail or from this address; wait the seconds in Retry-After before asking again.',
  },
  ERR_MAIL_NOT_CONFIGURED: {
    kind: 'unavailable',
    description: 'This server has no e-mail (SMTP) set up, so it cannot send a reset link; ask an administrator to set a new password on the users screen.',
  },
  ERR_RESET_TOKEN_INVALID: {
    kind: 'validation',
    description: 'The password-reset link is unknown or was already used (a newer request replaces older links); ask for a new one.',
  },
  ERR_RESET_TOKEN_EXPIRED: { kind: 'validation', description: 'The password-reset link expired (links work for 30 minutes); ask for a new one.' },
  ERR_TOO_MANY_LOGIN_ATTEMPTS: {
    kind: 'too-many-requests',
    description: 'Too many failed logins for this account; wait the seconds in Retry-After before trying again.',
  },
  ERR_COMPANY_INACTIVE: {
    kind: 'forbidden',
    description: "The user's company is disabled (or gone), so its users cannot log in; ask the platform to re-enable it.",
  },
  ERR_COMPANY_SUSPENDED: {
    kind: 'forbidden',
    description:
      'The company is suspended for an overdue invoice: only its admins may log in (to pay it, `POST /subscription`), and nobody of it may send, until it is paid.',
  },
  ERR_PASSWORD_CHANGE_REQUIRED: { kind: 'forbidden', description: 'The user still has the default password; change it before using anything else.' },
  ERR_NO_PERMISSION: { kind: 'forbidden', description: "The caller's profile may not do this (or see this ticket or company); ask an admin or super user." },
  ERR_INVALID_COMPANY_TOKEN: {
    kind: 'unauthorized',
    description: 'The company API token is missing or wrong (or that API is not configured); send the configured token as a Bearer token.',
  },
  ERR_INVALID_CONNECTION_TOKEN: {
    kind: 'unauthorized',
    description: 'The connection token is missing or matches no connection; send the token of one of your connections as a Bearer token.',
  },
  ERR_INVALID_SIGNATURE: {
    kind: 'unauthorized',
    description: 'The `X-Hub-Signature-256` of the webhook delivery is missing or does not match its body (or no app secret is configured).',
  },
  ERR_INVALID_WEBHOOK_SECRET: {
    kind: 'unauthorized',
    description: "The webhook's shared secret is missing or wrong (or none is configured); send it in `X-Webhook-Secret`.",
  },
  ERR_WEBHOOK_VERIFICATION_FAILED: {
    kind: 'forbidden',
    description: 'The webhook verification is not a subscription or its verify token does not match the configured one.',
  },
  ERR_SIGNUP_DISABLED: { kind: 'forbidden', description: 'Self sign-up is turned off on this platform; ask the platform to create the company.' },

  // ── Plans and their limits ──
  ERR_PLAN_FEATURE_DISABLED: { kind: 'forbidden', description: "The company's plan does not include this feature; move the company to a plan that does." },
  ERR_USER_CREATION_COUNT: { kind: 'forbidden', description: 'The company already has as many users as its plan allows; remove one or move to a larger plan.' },
  ERR_CONNECTION_CREATION_COUNT: {
    kind: 'forbidden',
    description: 'The company already has as many connections as its plan allows; remove one or move to a larger plan.',
  },
  ERR_QUEUE_CREATION_COUNT: {
    kind: 'forbidden',
    description: 'The company already has as many queues as its plan allows; remove one or move to a larger plan.',
  },
  ERR_NO_PLAN_FOUND: { kind: 'not-found', description: 'No plan with that id (on sign-up: no public one); pick one from the plan list.' },
  ERR_PLAN_IN_USE: { kind: 'conflict', description: 'Companies are still on this plan, so it cannot be removed; move them to another plan first.' },
  ERR_PLAN_NAME_ALREADY_EXISTS: { kind: 'conflict', description: 'Another plan already has this name; choose a different one.' },
  ERR_INVALID_PLAN_NAME: { kind: 'validation', description: 'The plan name must be 1 to 80 characters.' },
  ERR_INVALID_PLAN_AMOUNT: { kind: 'validation', description: 'The plan amount must be a non-negative number with at most two decimal places.' },
  ERR_INVALID_PLAN_LIMIT: { kind: 'validation', description: 'A plan limit must be a whole number from 0 to 1,000,000.' },

  // ── Companies ──
  ERR_NO_COMPANY_FOUND: { kind: 'not-found', description: 'No company with that id; check the id.' },
  ERR_INVALID_COMPANY_NAME: { kind: 'validation', description: 'The company name must be 2 to 120 characters.' },
  ERR_INVALID_EMAIL: { kind: 'validation', description: 'The e-mail address is not valid; send a well-formed address.' },
  ERR_INVALID_DOCUMENT: { kind: 'validation', description: 'The document must be a CPF (11 digits) or a CNPJ (14 digits with valid check digits).' },
  ERR_INVALID_DUE_DATE: { kind: 'validation', description: 'The due date must be a date as `YYYY-MM-DD`.' },
  ERR_INVALID_SCHEDULES: {
    kind: 'validation',
    description: 'The business hours are not valid: an unknown weekday, a start not before its end, a bad time of day, or too many entries.',
  },
  ERR_CANNOT_DELETE_OWN_COMPANY: { kind: 'validation', description: 'A super user cannot delete the company they belong to.' },
  ERR_CANNOT_DELETE_PLATFORM_COMPANY: { kind: 'validation', description: "A company with super users (the platform's own) cannot be deleted." },
  ERR_CANNOT_DISABLE_OWN_COMPANY: { kind: 'forbidden', description: 'A super user cannot disable the company they belong to.' },
  ERR_INVALID_CNPJ: { kind: 'validation', description: 'The CNPJ does not have 14 digits with valid check digits; check it for typos.' },
  ERR_CNPJ_NOT_FOUND: { kind: 'not-found', description: 'The company registry has no company with this CNPJ.' },
  ERR_CNPJ_REGISTRY_UNAVAILABLE: { kind: 'unavailable', description: 'The company registry did not answer in time; try again later.' },

  // ── Users ──
  ERR_NO_USER_FOUND: { kind: 'not-found', description: 'No user with that id (or e-mail) that the caller may see.' },
  ERR_EMAIL_ALREADY_EXISTS: { kind: 'conflict', description: 'Another user already has this e-mail address; use a different one.' },
  ERR_INVALID_NAME: { kind: 'validation', description: 'The name is empty or too long (users: 2 to 120 characters).' },
  ERR_PASSWORD_TOO_SHORT: { kind: 'validation', description: 'The password is shorter than 8 characters.' },
  ERR_PASSWORD_TOO_LONG: { kind: 'validation', description: 'The password is longer than 128 characters.' },
  ERR_CANNOT_CHANGE_OWN_PROFILE: { kind: 'forbidden', description: 'Users cannot change their own profile; another admin must do it.' },
  ERR_CANNOT_DELETE_SELF: { kind: 'forbidden', description: 'Users cannot delete themselves; another admin must do it.' },
  ERR_INVALID_WIDTH: { kind: 'validation', description: 'The tickets manager width is not a whole number within the allowed range.' },

  // ── Company API: helps, partners, invoices, platform activity ──
  ERR_NO_HELP_FOUND: { kind: 'not-found', description: 'No help entry with that id.' },
  ERR_NO_PARTNER_FOUND: { kind: 'not-found', description: 'No partner with that id.' },
  ERR_NO_INVOICE_FOUND: { kind: 'not-found', description: 'No invoice with that id.' },
  ERR_INVALID_HELP_TITLE: { kind: 'validation', description: 'The help title must be 1 to 200 characters.' },
  ERR_INVALID_HELP_DESCRIPTION: { kind: 'validation', description: 'The help description is over 10,000 characters.' },
  ERR_INVALID_HELP_VIDEO: { kind: 'validation', description: 'The help video is over 500 characters.' },
  ERR_INVALID_HELP_LINK: { kind: 'validation', description: 'The help link is over 500 characters.' },
  ERR_INVALID_PARTNER_NAME: { kind: 'validation', description: 'The partner name must be 2 to 120 characters.' },
  ERR_INVALID_PARTNER_PHONE: { kind: 'validation', description: 'The partner phone is over 40 characters.' },
  ERR_INVALID_PARTNER_COMMISSION: {
    kind: 'validation',
    description: 'The commission must be a non-negative number with at most two decimals, and at most 100 when a percentage.',
  },
  ERR_INVALID_PARTNER_COMMISSION_TYPE: { kind: 'validation', description: 'The commission type is not one of the documented values.' },
  ERR_INVALID_PARTNER_WALLET: { kind: 'validation', description: 'The partner wallet id is over 120 characters.' },
  ERR_INVALID_INVOICE_DETAIL: { kind: 'validation', description: 'The invoice detail must be 1 to 500 characters.' },
  ERR_INVALID_INVOICE_VALUE: { kind: 'validation', description: 'The invoice value must be a non-negative number with at most two decimal places.' },
  ERR_INVALID_INVOICE_DUE_DATE: { kind: 'validation', description: 'The invoice due date must be a real calendar day as `YYYY-MM-DD`.' },
  ERR_INVALID_INVOICE_STATUS: { kind: 'validation', description: 'The invoice status is not one of the documented values.' },
  ERR_INVALID_DATE: { kind: 'validation', description: 'A date filter is not a real calendar day as `YYYY-MM-DD`.' },
  ERR_INVALID_DATE_RANGE: { kind: 'validation', description: 'The start of the date range is after its end; swap or fix them.' },

  // ── Billing: Pix payments of invoices, the gateway's notifications ──
  ERR_INVOICE_NOT_OPEN: { kind: 'conflict', description: 'The invoice is already paid or was cancelled: there is nothing to pay on it.' },
  ERR_INVOICE_NOTHING_TO_PAY: { kind: 'conflict', description: "The invoice's value is zero: there is nothing to charge." },
  ERR_PAYMENT_GATEWAY_UNAVAILABLE: {
    kind: 'unavailable',
    description: 'The payment gateway did not answer (or none is configured on this platform); try again later.',
  },
  ERR_PAYMENT_GATEWAY_REFUSED: {
    kind: 'unavailable',
    description: "The payment gateway refused the platform's request (its access token is wrong or revoked); the platform must fix its configuration.",
  },
  ERR_PAYMENT_NOTIFICATIONS_DISABLED: {
    kind: 'unavailable',
    description: "The platform does not take the gateway's notifications right now (a super user turned them off); the gateway retries them later.",
  },
  ERR_INVALID_PAYMENT_SIGNATURE: {
    kind: 'unauthorized',
    description:
      "The payment notification's path token or its gateway signature is missing or wrong (or no webhook secret is configured); nothing was changed.",
  },

  // ── Settings and uploads ──
  ERR_NO_SETTING_FOUND: { kind: 'not-found', description: 'No setting with that key that the caller may read or change.' },
  ERR_SETTING_VALUE_NOT_ALLOWED: {
    kind: 'validation',
    description: 'The value is not one the setting accepts (a listed value, a number in range, a `#rrggbb` color or a time zone).',
  },
  ERR_SETTING_VALUE_TOO_LONG: { kind: 'validation', description: 'The value is longer than the setting accepts.' },
  ERR_SETTING_SET_BY_UPLOAD: { kind: 'validation', description: 'This setting holds a file; set it with its upload route instead.' },
  ERR_INVALID_LOGO_MODE: { kind: 'validation', description: 'The logo mode must be `Light`, `Dark` or `Favicon`.' },
  ERR_NO_FILE: { kind: 'validation', description: 'The upload has no file, or an empty one; attach the file in the documented field.' },
  ERR_FILE_TYPE_NOT_ALLOWED: { kind: 'validation', description: 'The file is not of a type this upload accepts (for images: the listed formats).' },

  // ── Connections and their sessions ──
  ERR_NO_CONNECTION_FOUND: { kind: 'not-found', description: "No connection with that id in the caller's company." },
  ERR_NO_DEFAULT_CONNECTION: {
    kind: 'not-found',
    description: 'No connection was given and the company has none to fall back on (a default one); pass a connection id or set a default.',
  },
  ERR_NO_CHATAPP_FOUND: { kind: 'not-found', description: 'No chat-application connection with that id accepted the events.' },
  ERR_INVALID_CONNECTION_NAME: { kind: 'validation', description: 'The connection name must be 1 to 120 characters.' },
  ERR_CONNECTION_TEXT_TOO_LONG: { kind: 'validation', description: 'A connection message (greeting, farewell...) is over its length limit.' },
  ERR_INVALID_REOPEN_WINDOW: { kind: 'validation', description: 'The ticket reopen window must be a whole number of minutes within the allowed range.' },
  ERR_INVALID_EXTERNAL_ID: { kind: 'validation', description: 'The external id (page or account id) has characters or a length that are not allowed.' },
  ERR_INVALID_SECRETS: { kind: 'validation', description: 'The connection secrets have too many entries, a bad name, or an empty or over-long value.' },
  ERR_EXTERNAL_ID_REQUIRED: { kind: 'validation', description: 'A social-network connection needs its page or account id (`externalId`).' },
  ERR_PAGE_ACCESS_TOKEN_REQUIRED: { kind: 'validation', description: 'A social-network connection needs its page access token in `secrets.pageAccessToken`.' },
  ERR_PAGE_ACCESS_TOKEN_INVALID: {
    kind: 'validation',
    description: 'Meta refused the page access token (expired, revoked or not a page token); generate a new one for the page.',
  },
  ERR_PAGE_NOT_OWNED: {
    kind: 'validation',
    description: 'The page access token belongs to another page; give the token of the page (or of the page linked to the Instagram account) you register.',
  },
  ERR_PAGE_IN_USE: { kind: 'conflict', description: 'A connection (of any company) already has this page or account id; remove it there first.' },
  ERR_GRAPH_API_UNAVAILABLE: { kind: 'unavailable', description: "Meta's Graph API did not answer, so the page could not be verified; try again later." },
  ERR_INVALID_CONNECTION_TOKEN_FORMAT: {
    kind: 'validation',
    description: 'The connection token is too short, too long or has characters that are not allowed.',
  },
  ERR_TOKEN_IN_USE: { kind: 'conflict', description: 'Another connection already has this token; choose a different one.' },
  ERR_INVALID_PROVIDER: { kind: 'validation', description: 'The provider does not serve this kind of connection; pick one listed for the kind.' },
  ERR_CONNECTION_KIND_CHANGE: {
    kind: 'validation',
    description: "A connection's kind cannot change, nor can it get a provider of another kind; create a new connection instead.",
  },
  ERR_PAIRING_NOT_SUPPORTED: {
    kind: 'validation',
    description: 'Only a chat-application session starting or restarting pairs by phone number; send no `phoneNumber` for this connection or action.',
  },
  ERR_INVALID_PAIRING_PHONE_NUMBER: {
    kind: 'validation',
    description: "The phone number to pair with must be the account's number in digits, the country code first (8 to 15 digits, no `+`).",
  },
  ERR_TOO_MANY_QUEUES: { kind: 'validation', description: 'Too many queues were linked in one request; link fewer.' },
  ERR_SESSION_NOT_CONNECTED: {
    kind: 'conflict',
    where: ['answer', 'failureReason', 'numberCheck'],
    description: "The connection's session is not connected, so it cannot answer or send; connect it (scan the QR code) and try again.",
  },
  ERR_CONTACTS_NOT_SUPPORTED: { kind: 'conflict', description: "The connection's provider has no address book to import from; use a file import instead." },
  ERR_SESSION_NOT_FOUND: {
    kind: 'conflict',
    where: ['failureReason'],
    description: 'No running session holds the connection, so the send never left; start the session and send again.',
  },
  ERR_SEND_DEADLINE_EXCEEDED: {
    kind: 'unavailable',
    where: ['failureReason'],
    description: 'The send could not be delivered before its deadline and was given up; send it again.',
  },
  ERR_SEND_FAILED: {
    kind: 'unavailable',
    where: ['failureReason'],
    description: 'The provider kept failing until the deadline (the reason continues with its error text); send again later.',
  },
  ERR_WRONG_CHANNEL: {
    kind: 'validation',
    where: ['failureReason'],
    description: "The send was for another kind of channel than the connection's provider; send through a matching connection.",
  },
  ERR_INVALID_CHATAPP_ID: {
    kind: 'validation',
    where: ['failureReason'],
    description: 'The send did not name a valid connection; it was refused by the channel runtime.',
  },
  ERR_INVALID_TICKET_DATA: {
    kind: 'validation',
    where: ['failureReason'],
    description: 'The send lacked its recipient or ticket; it was refused by the channel runtime.',
  },

  // ── Contacts and their import ──
  ERR_NO_CONTACT_FOUND: { kind: 'not-found', description: "No contact with that id in the caller's company." },
  ERR_DUPLICATED_CONTACT: {
    kind: 'conflict',
    description: 'The number (with or without the ninth digit) already belongs to another contact; edit that contact instead.',
  },
  ERR_IDENTIFIER_IN_USE: { kind: 'conflict', description: 'The identifier (LID or page-scoped id) already belongs to another contact.' },
  ERR_USER_ALREADY_LINKED: { kind: 'conflict', description: 'The user is already linked to another contact of the company; unlink it there first.' },
  ERR_MISSING_NUMBER: { kind: 'validation', description: 'The contact number is empty; send a phone number.' },
  ERR_INVALID_NUMBER: { kind: 'validation', description: 'The phone number is not valid; send digits with country and area code.' },
  ERR_NAME_TOO_LONG: { kind: 'validation', description: 'The contact name is over its length limit; shorten it.' },
  ERR_INVALID_EXTRA_INFO: { kind: 'validation', description: 'An extra-info entry has an empty or over-long name, or an over-long value.' },
  ERR_TOO_MANY_EXTRA_INFO: { kind: 'validation', description: 'The contact has more extra-info entries than allowed; send fewer.' },
  ERR_INVALID_IDENTIFIER: {
    kind: 'validation',
    description: 'An identifier has an unknown or `phone` kind, an empty or over-long value, or a page-scoped id without its page.',
  },
  ERR_TOO_MANY_IDENTIFIERS: { kind: 'validation', description: 'The contact has more identifiers than allowed; send fewer.' },
  ERR_GROUP_NUMBER_FIXED: { kind: 'validation', description: "A group contact's number cannot change; leave it as it is." },
  ERR_IMPORT_NO_FILE: { kind: 'validation', description: 'The contact import has no file; attach a CSV or XLSX file.' },
  ERR_IMPORT_UNSUPPORTED_FILE: {
    kind: 'validation',
    description: 'The import file is neither CSV nor XLSX (an old binary .xls, for one); save it as CSV or XLSX.',
  },
  ERR_IMPORT_INVALID_FILE: { kind: 'validation', description: 'The import file cannot be read as the spreadsheet it claims to be; export it again.' },
  ERR_IMPORT_EMPTY: { kind: 'validation', description: 'The import has no rows (or the file no header row); add contacts to import.' },
  ERR_IMPORT_NO_NUMBER_COLUMN: {
    kind: 'validation',
    description: 'No column of the import holds the number; give the number column a known header or map it.',
  },
  ERR_IMPORT_UNKNOWN_COLUMN: { kind: 'validation', description: 'The column mapping names a column the file does not have.' },
  ERR_IMPORT_TOO_MANY_ROWS: { kind: 'too-large', description: 'The import has more rows than allowed; split it into smaller files.' },
  ERR_IMPORT_NOT_FOUND: { kind: 'not-found', description: 'No import with that id for the company (reports expire after a while).' },
  ERR_IMPORT_FAILED: {
    kind: 'unavailable',
    where: ['import'],
    description: "The import stopped on an unexpected failure (shown as the import's `error`); run it again.",
  },

  // ── Contact lists (the campaigns' audiences) ──
  ERR_NO_FILE_LIST_FOUND: { kind: 'not-found', description: "No file list with that id in the caller's company." },
  ERR_NO_FILE_OPTION_FOUND: {
    kind: 'not-found',
    description: "The option id is not one of this file list's options; read the list again for its current options.",
  },
  ERR_FILE_LIST_NAME_IN_USE: { kind: 'conflict', description: 'Another file list of the company has this name; choose another.' },
  ERR_INVALID_FILE_LIST_NAME: { kind: 'validation', description: 'The file list name is empty or over 255 characters.' },
  ERR_INVALID_FILE_LIST_MESSAGE: { kind: 'validation', description: 'The file list message is over 4,096 characters.' },
  ERR_INVALID_FILE_OPTION: {
    kind: 'validation',
    description:
      'A file list option is invalid: a caption over 255 characters, an id given twice, an id on a new list, or an upload whose ids, names and files do not line up.',
  },
  ERR_TOO_MANY_FILE_OPTIONS: { kind: 'validation', description: 'A file list holds at most 20 options, and one upload carries at most 10 files; send fewer.' },
  ERR_NO_CONTACT_LIST_FOUND: { kind: 'not-found', description: "No contact list with that id in the caller's company." },
  ERR_NO_CONTACT_LIST_ITEM_FOUND: { kind: 'not-found', description: "No contact-list item with that id in the caller's company." },
  ERR_CONTACT_LIST_IN_USE: { kind: 'conflict', description: 'A campaign that has not started yet will read this list; delete or change that campaign first.' },
  ERR_CONTACT_LIST_ITEM_DUPLICATE: {
    kind: 'conflict',
    description: 'The list already has this number (with or without the ninth digit); edit that item instead.',
  },
  ERR_INVALID_CONTACT_LIST_NAME: { kind: 'validation', description: 'The contact list name is empty or over 255 characters.' },
  ERR_INVALID_CONTACT_LIST_VARIABLES: {
    kind: 'validation',
    description:
      "More than 50 variables (extra spreadsheet columns), a blank or over-long (100) variable name, or a value over 1,000 characters; also an import row's reason.",
  },
  ERR_NUMBER_CHECK_FAILED: {
    kind: 'unavailable',
    where: ['numberCheck'],
    description: "The provider failed while checking a contact-list item's number (shown as the item's `validationError`); the check runs again later.",
  },

  // ── Tickets ──
  ERR_NO_TICKET_FOUND: { kind: 'not-found', description: "No ticket with that id in the caller's company." },
  ERR_OTHER_OPEN_TICKET: { kind: 'conflict', description: 'The contact already has an open or pending ticket on this connection; use that ticket.' },
  ERR_TICKET_CLOSED: { kind: 'conflict', description: 'The ticket is closed; reopen it before sending or changing it (private notes are still allowed).' },
  ERR_PENDING_TICKET_HAS_NO_USER: { kind: 'validation', description: 'A pending ticket cannot have a user; open it, or leave the user out.' },
  ERR_NOTHING_TO_UPDATE: { kind: 'validation', description: 'The update names no status, user or queue; send at least one.' },
  ERR_INVALID_RATING: { kind: 'validation', description: 'A rating must be a whole number from 1 to 5, given only when closing the ticket.' },
  ERR_KANBAN_STATUS: { kind: 'validation', description: 'The kanban shows only `open` and `pending` tickets; filter by one of those.' },
  ERR_TAG_SYNC_NEEDS_ONE_TARGET: { kind: 'validation', description: 'Tags are synced onto either a ticket or a contact; give exactly one of the two.' },
  ERR_TOO_MANY_TAGS: { kind: 'validation', description: 'More tags than allowed in one sync; send fewer.' },

  // ── Tags ──
  ERR_NO_TAG_FOUND: { kind: 'not-found', description: "No tag with that id (or one of those ids) in the caller's company." },
  ERR_TAG_NAME_ALREADY_EXISTS: { kind: 'conflict', description: 'Another tag of the company already has this name (ignoring case); choose a different one.' },
  ERR_INVALID_TAG_NAME: { kind: 'validation', description: 'The tag name must be 1 to 60 characters.' },
  ERR_INVALID_TAG_COLOR: { kind: 'validation', description: 'The tag color must be `#rrggbb`.' },
  ERR_INVALID_LANE_ORDER: { kind: 'validation', description: 'The kanban lane order must be a whole number within the allowed range.' },

  // ── Messages ──
  ERR_NO_MESSAGE_FOUND: { kind: 'not-found', description: "No message with that id in the caller's company." },
  ERR_NOT_OWN_MESSAGE: { kind: 'forbidden', description: 'Only messages the operators sent can be changed, and users may change only their own.' },
  ERR_MESSAGE_DELETED: { kind: 'conflict', description: 'The message was deleted; it can no longer be edited or forwarded.' },
  ERR_MESSAGE_NOT_SENT: { kind: 'conflict', description: 'The message has not reached the provider yet (or failed); wait for it to be sent.' },
  ERR_EDIT_NOT_SUPPORTED: { kind: 'validation', description: 'Messages sent through this kind of connection cannot be edited.' },
  ERR_REVOKE_NOT_SUPPORTED: { kind: 'validation', description: 'Messages sent through this kind of connection cannot be deleted for the contact.' },
  ERR_EMPTY_MESSAGE: { kind: 'validation', description: 'The message has neither text nor media; send one or the other.' },
  ERR_MESSAGE_TOO_LONG: { kind: 'validation', description: 'The message text is over its length limit; shorten or split it.' },
  ERR_EMPTY_FILE: { kind: 'validation', description: 'An attached file is empty; attach the file again.' },
  ERR_QUOTED_MESSAGE_NOT_FOUND: {
    kind: 'validation',
    description: "The quoted message is not one of this ticket's conversation; quote a message of the same contact and connection.",
  },
  ERR_CANNOT_FORWARD_PRIVATE: { kind: 'validation', description: 'Private notes cannot be forwarded.' },
  ERR_INVALID_CATALOG_ITEMS: {
    kind: 'validation',
    description:
      "A catalog send names `productIds` (1 to 30 of the company's products) or a `categoryId`, not both, and at least one of the products must be active.",
  },
  ERR_IDEMPOTENCY_KEY_REUSED: {
    kind: 'validation',
    description: 'This Idempotency-Key was already used with a different request; use a new key for a new request.',
  },
  ERR_IDEMPOTENT_REQUEST_IN_PROGRESS: {
    kind: 'conflict',
    description: 'A request with the same Idempotency-Key is still being processed; wait and retry to get its result.',
  },
  ERR_INVALID_URL: { kind: 'validation', description: 'The media URL is not an `http` or `https` URL.' },
  ERR_URL_NOT_ALLOWED: { kind: 'validation', description: 'The URL points to an address that is not public; use a publicly reachable URL.' },
  ERR_URL_NOT_REACHABLE: {
    kind: 'validation',
    description: 'The media URL did not resolve, failed, or did not answer 200; check that it is publicly downloadable.',
  },
  ERR_URL_TIMEOUT: { kind: 'validation', description: 'The media URL took too long to answer; use a faster host.' },

  // ── A contact's file, fetched from its provider after its message is stored (`media.error`) ──
  ERR_MEDIA_TOO_LARGE: {
    kind: 'too-large',
    description: "The contact's file is over the size limit (`INBOUND_MEDIA_MAX_BYTES`); it was not kept. Ask for it by other means.",
    where: ['media'],
  },
  ERR_MEDIA_EMPTY: { kind: 'validation', description: "The provider answered the contact's file with no bytes.", where: ['media'] },
  ERR_MEDIA_TYPE_NOT_ALLOWED: {
    kind: 'validation',
    description: "The contact's file is not what its message said (an image answered as a page); it was not kept.",
    where: ['media'],
  },
  ERR_MEDIA_NOT_FOUND: {
    kind: 'not-found',
    description: "The provider no longer has the contact's file (its link expired or it was deleted); ask the contact to send it again.",
    where: ['media'],
  },
  ERR_MEDIA_REFUSED: {
    kind: 'validation',
    description: "The provider refused to give the contact's file (the connection's token is invalid or lacks the permission); check the connection.",
    where: ['media'],
  },
  ERR_MEDIA_UNAVAILABLE: {
    kind: 'unavailable',
    description: "The provider did not answer for the contact's file through every retry; ask the contact to send it again.",
    where: ['media'],
  },
  ERR_MEDIA_UNREADABLE: {
    kind: 'validation',
    description:
      "The contact's file did not decrypt with its message's key, or its bytes do not match the digest the message declares; ask the contact to send it again.",
    where: ['media'],
  },
  ERR_MEDIA_NOT_SUPPORTED: {
    kind: 'validation',
    description: "Nothing in this installation can fetch the contact's file from where its channel keeps it; only its caption was kept.",
    where: ['media'],
  },

  // ── Queues, their options, chatbots and integrations ──
  ERR_QUEUE_NOT_FOUND: { kind: 'not-found', description: "No queue with that id (or one of those ids) in the caller's company." },
  ERR_QUEUE_NAME_ALREADY_EXISTS: {
    kind: 'conflict',
    description: 'Another queue of the company already has this name (ignoring case); choose a different one.',
  },
  ERR_INVALID_QUEUE_NAME: { kind: 'validation', description: 'The queue name is empty or over its length limit.' },
  ERR_INVALID_QUEUE_COLOR: { kind: 'validation', description: 'The queue color must be `#rrggbb`.' },
  ERR_INVALID_QUEUE_ORDER: { kind: 'validation', description: 'The queue order must be a whole number within the allowed range.' },
  ERR_QUEUE_TEXT_TOO_LONG: { kind: 'validation', description: 'A queue message (greeting, out-of-hours...) is over its length limit.' },
  ERR_TOO_MANY_QUEUE_USERS: { kind: 'validation', description: 'Too many users were linked to the queue in one request; link fewer.' },
  ERR_QUEUE_OPTION_NOT_FOUND: { kind: 'not-found', description: "No queue option with that id in the caller's company." },
  ERR_CHATBOT_NOT_FOUND: { kind: 'not-found', description: "No chatbot with that id in the caller's company." },
  ERR_QUEUE_OPTION_ALREADY_EXISTS: { kind: 'conflict', description: 'A sibling option already uses this key (ignoring case); choose another key.' },
  ERR_INVALID_QUEUE_OPTION_KEY: { kind: 'validation', description: 'The option key is empty, too long, or has a line break or `*`.' },
  ERR_INVALID_QUEUE_OPTION_TITLE: { kind: 'validation', description: 'The option title is empty or over its length limit.' },
  ERR_QUEUE_OPTION_MESSAGE_TOO_LONG: { kind: 'validation', description: 'The option message is over its length limit.' },
  ERR_QUEUE_OPTION_ONE_ACTION: {
    kind: 'validation',
    description: 'An option may forward to a queue, forward to a user, or close the ticket: choose at most one.',
  },
  ERR_QUEUE_OPTION_QUEUE_MISMATCH: {
    kind: 'validation',
    description: "An option belongs to its parent's queue; it cannot be given or moved to another queue.",
  },
  ERR_QUEUE_OPTION_TOO_DEEP: { kind: 'validation', description: 'The option tree would be deeper than allowed; attach the option higher up.' },
  ERR_QUEUE_OPTION_CYCLE: { kind: 'validation', description: 'An option cannot be moved under itself or one of its own children.' },
  ERR_QUEUE_REQUIRED: { kind: 'validation', description: 'A top-level option needs its queue; give `queueId`.' },
  ERR_INTEGRATION_NOT_FOUND: { kind: 'not-found', description: "No integration with that id in the caller's company." },
  ERR_INTEGRATION_NAME_ALREADY_EXISTS: {
    kind: 'conflict',
    description: 'Another integration of the company already has this name (ignoring case); choose a different one.',
  },
  ERR_INVALID_INTEGRATION_NAME: { kind: 'validation', description: 'The integration name is empty or over its length limit.' },
  ERR_INVALID_INTEGRATION_TYPE: { kind: 'validation', description: 'The integration type is not one of the documented values.' },
  ERR_INVALID_INTEGRATION_URL: {
    kind: 'validation',
    description: 'The integration URL must be an `http` or `https` URL without user or password, within the length limit.',
  },
  ERR_INVALID_INTEGRATION_CREDENTIAL: {
    kind: 'validation',
    description: 'The integration token or secret is too long or has characters outside printable ASCII.',
  },
  ERR_INVALID_INTEGRATION_CONFIG: { kind: 'validation', description: 'The integration config must be a JSON object within the size limit.' },
  ERR_INTEGRATION_UNREACHABLE: {
    kind: 'unavailable',
    description: "The integration's URL did not resolve or did not answer; check the URL and that the service is up.",
  },
  ERR_INTEGRATION_RETRY: { kind: 'unavailable', description: 'The integration answered 408, 429 or 5xx; the delivery is retried later by itself.' },

  // ── Campaigns (the core's campaign domain; its routes come with the campaigns feature) ──
  ERR_NO_CAMPAIGN_FOUND: { kind: 'not-found', description: "No campaign with that id in the caller's company." },
  ERR_CAMPAIGN_STATUS_CONFLICT: {
    kind: 'conflict',
    description: "The campaign's current status does not allow this action (pausing one that is not running, editing a running one…); read it again.",
  },
  ERR_CAMPAIGN_NO_AUDIENCE: { kind: 'validation', description: 'The campaign names neither a contact list nor a tag to send to.' },
  ERR_CAMPAIGN_NO_MESSAGE: { kind: 'validation', description: 'Every message variant is empty (or, with confirmation on, every confirmation variant).' },
  ERR_CAMPAIGN_NO_CONNECTION: { kind: 'validation', description: "The campaign names no sending connection of the caller's company." },
  ERR_CAMPAIGN_TEMPLATE_REQUIRED: { kind: 'validation', description: 'A campaign on a bizchat connection must name an approved template.' },
  ERR_INVALID_CAMPAIGN_SETTING: { kind: 'validation', description: 'A campaign setting is out of its range; the details name the key.' },
  ERR_CAMPAIGN_INVALID_NAME: { kind: 'validation', description: 'A campaign needs a name of 1 to 255 characters.' },
  ERR_CAMPAIGN_INVALID_SCHEDULE: {
    kind: 'validation',
    description: 'The scheduledAt value is neither an ISO 8601 time nor a "YYYY-MM-DD HH:mm[:ss]" date and time.',
  },
  ERR_CAMPAIGN_MESSAGE_TOO_LONG: { kind: 'validation', description: 'A message or confirmation variant is longer than 4,096 characters; the details name it.' },

  // ── Internal chats (operator ↔ operator) ──
  ERR_NO_CHAT_FOUND: {
    kind: 'not-found',
    description:
      "No internal chat with that id (or uuid) that the caller is a member of; another company's chat, or one the caller is not in, is absent alike.",
  },
  ERR_CHAT_INVALID_TITLE: { kind: 'validation', description: "The chat's title is empty or longer than 255 characters." },
  ERR_TOO_MANY_CHAT_MEMBERS: { kind: 'validation', description: 'A chat has at most 500 members, its owner included; choose fewer users.' },
  ERR_CHAT_MESSAGE_EMPTY: { kind: 'validation', description: 'The chat message has neither text nor a file; write something or attach a file in `medias`.' },
  ERR_CHAT_MESSAGE_TOO_LONG: { kind: 'validation', description: "A chat message's text is longer than 10,000 characters; split it." },

  // ── Announcements (platform notices written by super users) ──
  ERR_NO_ANNOUNCEMENT_FOUND: {
    kind: 'not-found',
    description: 'No announcement with that id that you may read (users read the active ones aimed at their company); check the id.',
  },
  ERR_ANNOUNCEMENT_INVALID_TITLE: { kind: 'validation', description: 'An announcement needs a title of 1 to 255 characters.' },
  ERR_ANNOUNCEMENT_TEXT_TOO_LONG: { kind: 'validation', description: "The announcement's text is longer than 10,000 characters." },
  ERR_ANNOUNCEMENT_INVALID_PRIORITY: { kind: 'validation', description: "An announcement's priority is 1 (high), 2 (medium) or 3 (low)." },
  ERR_ANNOUNCEMENT_INVALID_WINDOW: {
    kind: 'validation',
    description: "The window's startsAt and endsAt are ISO 8601 times with an offset (or null), and endsAt comes after startsAt; the details name the field.",
  },
  ERR_ANNOUNCEMENT_INVALID_TARGET: {
    kind: 'validation',
    description: "The announcement's targetCompanyIds is null (every company) or a list of 1 to 1,000 company ids.",
  },

  // ── Schedules and scheduled messages (an occurrence's `failureReason` holds send-time codes too) ──
  ERR_NO_SCHEDULE_FOUND: { kind: 'not-found', description: "No schedule (or scheduled message) with that id in the caller's company." },
  ERR_SCHEDULE_INVALID_BODY: { kind: 'validation', description: 'The message text is empty or longer than 4,096 characters.' },
  ERR_SCHEDULE_INVALID_NAME: { kind: 'validation', description: 'A scheduled message needs a name of 1 to 255 characters.' },
  ERR_SCHEDULE_INVALID_TIME: {
    kind: 'validation',
    description: 'The time is missing, or neither an ISO 8601 time nor "YYYY-MM-DD HH:mm[:ss]" (or "YYYY-MM-DDTHH:mm") on the company\'s clock.',
  },
  ERR_SCHEDULE_IN_PAST: { kind: 'validation', description: 'The time lies more than 5 minutes in the past; choose a moment to come.' },
  ERR_SCHEDULE_INVALID_RECURRENCE: {
    kind: 'validation',
    description:
      'The recurrence is not valid (its unit, every, count or weekend rule out of range, or an end before the first send); the details name the field.',
  },
  ERR_SCHEDULE_NO_RECIPIENTS: {
    kind: 'validation',
    description: "A schedule needs a contact, a scheduled message at least one contact or tag; as an occurrence's reason: nobody was left to send to.",
  },
  ERR_SCHEDULE_TOO_MANY_RECIPIENTS: {
    kind: 'validation',
    description: 'A scheduled message names more than 1,000 contacts or tags; use a campaign for a larger audience.',
  },
  ERR_SCHEDULE_SENDING: {
    kind: 'conflict',
    description: 'The scheduled message is being sent right now, so its time cannot move; edit it once this send is done.',
  },

  // ── Prompts (AI assistants answering contacts) and the language model ──
  ERR_NO_PROMPT_FOUND: { kind: 'not-found', description: "No prompt with that id in the caller's company." },
  ERR_PROMPT_INVALID_NAME: { kind: 'validation', description: "A prompt's name is 1 to 100 characters." },
  ERR_PROMPT_INVALID_INSTRUCTIONS: { kind: 'validation', description: "A prompt's instructions (`prompt`) are 1 to 20,000 characters." },
  ERR_PROMPT_INVALID_MAX_MESSAGES: {
    kind: 'validation',
    description: '`maxMessages` (how many of the latest messages go with each one) is a whole number from 1 to 50.',
  },
  ERR_PROMPT_INVALID_MAX_TOKENS: { kind: 'validation', description: '`maxTokens` is a whole number from 1 to 16,000.' },
  ERR_PROMPT_INVALID_TEMPERATURE: { kind: 'validation', description: '`temperature` is a number from 0 to 2.' },
  ERR_PROMPT_VOICE_NOT_SUPPORTED: { kind: 'validation', description: 'Assistants answer in text: `voice` is `texto` (or absent).' },
  ERR_PROMPT_MODEL_NOT_ALLOWED: { kind: 'validation', description: 'The model is not one the server allows (`PROMPT_MODELS`); leave it out for the default.' },
  ERR_PROMPT_INVALID_BASE_URL: {
    kind: 'validation',
    description: 'The base URL is not an http(s) URL without credentials, query or fragment (up to 500 characters); `openai-compatible` needs one.',
  },
  ERR_PROMPT_INVALID_API_KEY: { kind: 'validation', description: 'The API key is 1 to 500 characters without spaces.' },
  ERR_PROMPT_API_KEY_REQUIRED: { kind: 'validation', description: 'The provider `openai` needs an API key; give `apiKey`.' },
  ERR_PROMPT_API_KEY_UNREADABLE: {
    kind: 'validation',
    description: "The prompt's API key was sealed under another server key (`SECRETS_KEY` or `JWT_SECRET` changed) and cannot be opened; enter the key again.",
  },
  ERR_PROMPT_TICKET_TAKEN: {
    kind: 'conflict',
    description: "As an assistant answer's reason: a person took the ticket (or it closed) before the answer went out, so nothing was sent.",
  },
  ERR_PROMPT_HANDOVER_REQUESTED: {
    kind: 'conflict',
    description: "As an assistant answer's reason: the model asked for a person (the hand-over phrase); the ticket went to the prompt's queue.",
  },
  ERR_PROMPT_AUDIO_NOT_TRANSCRIBED: {
    kind: 'unavailable',
    description:
      "As an assistant answer's reason: the contact's audio could not be transcribed (no default speech-to-text credential, or the service failed); the ticket went to a person.",
  },
  ERR_PROMPT_QUEUE_REQUIRED: { kind: 'validation', description: 'A prompt needs `queueId`: the queue a conversation is handed to when a human is needed.' },
  ERR_PROMPT_IN_USE: { kind: 'conflict', description: 'Connections or queues still point to this prompt (`promptId`); point them elsewhere or to none first.' },
  ERR_LANGUAGE_MODEL_REFUSED: {
    kind: 'validation',
    description: "The chat model's service refused the request (a wrong or revoked API key, an unknown model); check the prompt.",
  },
  ERR_LANGUAGE_MODEL_UNAVAILABLE: {
    kind: 'unavailable',
    description: "The chat model's service did not answer (down, overloaded, rate-limited, or an answer that is not a completion); try again later.",
  },
  ERR_LANGUAGE_MODEL_TIMEOUT: { kind: 'unavailable', description: "The chat model's service did not answer in time." },

  // ── Flows (the flow builder) and the AI-agent routes ──
  ERR_NO_FLOW_FOUND: { kind: 'not-found', description: "No flow with that id in the caller's company." },
  ERR_FLOW_NAME_IN_USE: { kind: 'conflict', description: 'Another flow of the company has this name; choose another.' },
  ERR_FLOW_INVALID_NAME: { kind: 'validation', description: "A flow's name is 1 to 100 characters." },
  ERR_FLOW_INVALID_TRIGGERS: {
    kind: 'validation',
    description:
      "Triggers are at most 20, each `welcome`, `keyword`, `noMatch` or `manual` with the company's `chatappIds`; a `keyword` trigger has 1 to 20 keywords (1 to 100 characters, `exact` or `contains`).",
  },
  ERR_FLOW_VERSION_CONFLICT: {
    kind: 'conflict',
    description: 'The draft changed since the `version` sent (another editor saved it): read the flow again and apply the change to its current draft.',
  },
  ERR_FLOW_INVALID_NODE: {
    kind: 'validation',
    description: 'A node of the draft does not fit its type (`nodeId` names it, `reason` says what): an unknown type, a field out of bounds, a repeated id.',
  },
  ERR_FLOW_INVALID_EDGE: {
    kind: 'validation',
    description:
      "An edge is malformed, uses a handle its node lacks, or one already taken; `nodeId` is its source node, `edgeId` the request's id for it (or null), `reason` says what.",
  },
  ERR_FLOW_NODE_NOT_FOUND: { kind: 'not-found', description: 'The draft has no node with that id (or an edge names a node it does not have).' },
  ERR_FLOW_EDGE_NOT_FOUND: { kind: 'not-found', description: 'The draft has no edge with that id.' },
  ERR_FLOW_TOO_LARGE: { kind: 'validation', description: 'A flow has at most 500 nodes and 2,000 edges.' },
  ERR_FLOW_INVALID_GRAPH: {
    kind: 'validation',
    description:
      'The draft cannot be published: `nodeId` names the node at fault (null: the whole graph), `reason` says why (no single start, a handle leading nowhere, a node out of reach…).',
  },
  ERR_FLOW_IN_USE: { kind: 'conflict', description: 'Other flows go to this one (a `goToFlow` node of their draft or published version): change them first.' },
  ERR_FLOW_NOT_PUBLISHED: { kind: 'conflict', description: 'The flow has no published version yet: publish it before activating it or simulating a version.' },
  ERR_FLOW_VERSION_NOT_FOUND: { kind: 'not-found', description: 'The flow has no published version with that number.' },
  ERR_FLOW_LOOP: {
    kind: 'validation',
    description:
      'The flow ran 1,000 nodes without waiting for the contact: a loop without a question, interval or call in it. `nodeId` names where it stopped.',
  },
  ERR_FLOW_RUN_ACTIVE: {
    kind: 'conflict',
    description: 'The ticket already has a running flow (one run per ticket): wait for it to end, or have an operator take the ticket, which cancels it.',
  },
  ERR_FLOW_RUN_CHANGED: {
    kind: 'conflict',
    description:
      'Another step of the same flow run was saved first (a concurrent answer, timer or call result): the step is tried again on the run as it now is.',
  },
  ERR_FLOW_TICKET_TAKEN: {
    kind: 'conflict',
    description: 'A flow only talks to a pending ticket nobody took (and not to a group): this one is open with an operator, closed, or a group.',
  },
  ERR_FLOW_EXECUTE_TARGET: {
    kind: 'validation',
    description: "Give either `ticketId`, or `contactId` with `chatappId` (the contact's conversation on that connection), not both.",
  },
  ERR_FLOW_AI_CONFIG_REQUIRED: {
    kind: 'validation',
    description: "Give the model to use: `promptId` (one of the company's prompts) or `config` (provider, model, base URL and key), not both.",
  },

  // ── Transcription (speech-to-text of audio messages) and its credentials ──
  ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED: {
    kind: 'validation',
    description:
      'The company has no transcription credential to use: an admin adds one (`POST /transcription-credentials`) or chooses the default (`PUT /transcription-credentials/default`).',
  },
  ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND: {
    kind: 'not-found',
    description: "No transcription credential with that id in the caller's company (or the company has no default).",
  },
  ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE: { kind: 'conflict', description: 'Another transcription credential of the company has that name; choose another.' },
  ERR_TRANSCRIPTION_CREDENTIAL_IS_DEFAULT: {
    kind: 'conflict',
    description: "The credential is the company's default and others exist: make another one the default first.",
  },
  ERR_TRANSCRIPTION_CREDENTIAL_UNREADABLE: {
    kind: 'validation',
    description:
      "The credential's API key was sealed under another server key (`SECRETS_KEY` or `JWT_SECRET` changed) and cannot be opened; enter the key again.",
  },
  // ── Proxies (the pools session connections go through) ──
  ERR_NO_PROXY_FOUND: { kind: 'not-found', description: "No proxy with that id in the caller's company or the platform's pool." },
  ERR_PROXY_READ_ONLY: { kind: 'forbidden', description: "The proxy belongs to the platform's pool: only the super admin changes, removes or disables it." },
  ERR_PROXY_INVALID_NAME: { kind: 'validation', description: 'A proxy name has 1 to 100 characters.' },
  ERR_PROXY_INVALID_HOST: { kind: 'validation', description: 'The proxy host must be a host name or an IPv4/IPv6 address.' },
  ERR_PROXY_INVALID_PORT: { kind: 'validation', description: 'The proxy port must be a whole number from 1 to 65535.' },
  ERR_PROXY_INVALID_COUNTRY: { kind: 'validation', description: 'The country must be an ISO 3166-1 alpha-2 code (`BR`, `US`…) or empty.' },
  ERR_PROXY_INVALID_CAPACITY: { kind: 'validation', description: '`maxConnections` must be a whole number from 1 to 1000.' },
  ERR_PROXY_INVALID_CREDENTIALS: {
    kind: 'validation',
    description: 'Username and password have at most 255 printable ASCII characters each, and a password needs a username.',
  },
  ERR_PROXY_INVALID_REASON: { kind: 'validation', description: 'The reason for disabling a proxy has at most 500 characters.' },
  ERR_PROXY_CREDENTIALS_UNREADABLE: {
    kind: 'validation',
    description: "The proxy's password was sealed under another server key (`SECRETS_KEY` or `JWT_SECRET` changed) and cannot be opened; enter it again.",
  },
  ERR_PROXY_CHECK_FAILED: {
    kind: 'validation',
    description:
      'Opening a tunnel through the proxy failed (refused, wrong credentials, unreachable or too slow): nothing was saved. Fix the address or credentials, or send `skipCheck: true` to save it unchecked.',
  },
  ERR_PROXY_IN_USE: {
    kind: 'conflict',
    description: 'Connections use the proxy: move them first, or delete with `?force=true` to move them to other proxies.',
  },
  ERR_PROXY_UNAVAILABLE: {
    kind: 'conflict',
    description: 'The proxy is disabled or failing its checks: choose another, or omit `proxyId` to get the least-loaded healthy one.',
  },
  ERR_PROXY_FULL: { kind: 'conflict', description: 'The proxy already carries its `maxConnections`: choose another or raise its capacity.' },
  ERR_PROXY_NO_CAPACITY: { kind: 'conflict', description: 'No usable proxy has room for another connection: add proxies or raise their capacity.' },
  ERR_PROXY_NOT_FOR_CONNECTION: { kind: 'validation', description: 'Only chat-application (session) connections go through proxies.' },
  ERR_NO_PROXY_ASSIGNMENT: { kind: 'not-found', description: 'The connection has no proxy to remove.' },
  ERR_TRANSCRIPTION_INVALID_NAME: { kind: 'validation', description: "A transcription credential's name is 1 to 100 characters." },
  ERR_TRANSCRIPTION_INVALID_BASE_URL: {
    kind: 'validation',
    description: 'The base URL is not an http(s) URL without credentials, query or fragment (up to 500 characters), e.g. `https://api.openai.com/v1`.',
  },
  ERR_TRANSCRIPTION_INVALID_MODEL: { kind: 'validation', description: 'The model is 1 to 100 letters, digits and `.`, `_`, `-`, `:`, `/` (e.g. `whisper-1`).' },
  ERR_TRANSCRIPTION_INVALID_LANGUAGE: {
    kind: 'validation',
    description: 'The language is an ISO-639-1 code of two lowercase letters (`pt`, `en`), or null to let the service detect it.',
  },
  ERR_TRANSCRIPTION_INVALID_API_KEY: { kind: 'validation', description: 'The API key is 1 to 500 characters without spaces.' },
  ERR_TRANSCRIPTION_API_KEY_REQUIRED: { kind: 'validation', description: 'The provider `openai` needs an API key; give `apiKey`.' },
  ERR_MESSAGE_NOT_AUDIO: { kind: 'validation', description: 'The message named carries no audio; only audio messages are transcribed.' },
  ERR_AUDIO_TOO_LARGE: {
    kind: 'too-large',
    where: ['answer', 'transcription'],
    description: 'The audio is larger than the 25 MB a speech-to-text service takes in one request.',
  },
  ERR_AUDIO_NOT_FOUND: {
    kind: 'not-found',
    where: ['answer', 'transcription'],
    description: 'The audio file of the message is no longer in storage, so it cannot be transcribed.',
  },
  ERR_TRANSCRIPTION_PROVIDER_REFUSED: {
    kind: 'validation',
    where: ['answer', 'transcription'],
    description:
      'The speech-to-text service refused the request (a wrong or revoked API key, an unknown model, an audio format it does not read); check the credential.',
  },
  ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE: {
    kind: 'unavailable',
    where: ['answer', 'transcription'],
    description: 'The speech-to-text service did not answer, failed (5xx), throttled (429) or answered something that is not a transcription; try again later.',
  },
  ERR_TRANSCRIPTION_TIMEOUT: {
    kind: 'unavailable',
    where: ['answer', 'transcription'],
    description: 'The speech-to-text service took longer than `TRANSCRIPTION_TIMEOUT_MS`; try again later, or shorter audio.',
  },
  ERR_TRANSCRIPTION_JOB_FAILED: {
    kind: 'unavailable',
    where: ['transcription'],
    description: 'The background transcription stopped on an unexpected error after its retries; ask for it again.',
  },

  // ── Catalog: products, their images and imports, categories ──
  ERR_PRODUCT_NOT_FOUND: {
    kind: 'not-found',
    description: "No product with that id in the caller's company (for a bulk delete: one of the ids; nothing was deleted).",
  },
  ERR_PRODUCT_INVALID_NAME: { kind: 'validation', where: ['answer', 'import'], description: "A product's name is 1 to 200 characters." },
  ERR_PRODUCT_INVALID_DESCRIPTION: { kind: 'validation', where: ['answer', 'import'], description: "A product's description is at most 5,000 characters." },
  ERR_PRODUCT_INVALID_SKU: {
    kind: 'validation',
    where: ['answer', 'import'],
    description: 'A SKU is 1 to 64 characters without line breaks; empty or null for none.',
  },
  ERR_PRODUCT_INVALID_PRICE: {
    kind: 'validation',
    where: ['answer', 'import'],
    description: 'A price is a whole number of minor units (cents) from 0 to 1,000,000,000; a spreadsheet may write `12,50`, `12.50` or `R$ 12,50`.',
  },
  ERR_PRODUCT_INVALID_CURRENCY: {
    kind: 'validation',
    where: ['answer', 'import'],
    description: 'A currency is a three-letter ISO 4217 code such as `BRL` or `USD`.',
  },
  ERR_PRODUCT_INVALID_STOCK: { kind: 'validation', where: ['answer', 'import'], description: 'Stock is a whole number from 0 to 1,000,000,000.' },
  ERR_PRODUCT_INVALID_ACTIVE: {
    kind: 'validation',
    where: ['import'],
    description: 'In a product import, `active` is yes or no (sim/não, true/false, 1/0), or empty for yes.',
  },
  ERR_PRODUCT_SKU_IN_USE: { kind: 'conflict', description: 'Another product of the company has this SKU; choose another or leave it empty.' },
  ERR_PRODUCT_IMAGE_NOT_FOUND: { kind: 'not-found', description: "No image with that id on this product of the caller's company." },
  ERR_PRODUCT_TOO_MANY_IMAGES: { kind: 'validation', description: 'A product has at most 10 images; delete some before adding more.' },
  ERR_PRODUCT_IMPORT_MISSING_COLUMNS: {
    kind: 'validation',
    description: 'A product import needs a name column and a price column (headers such as name/nome/produto and price/preço/valor).',
  },
  ERR_PRODUCT_IMPORT_DUPLICATE_SKU: {
    kind: 'validation',
    where: ['import'],
    description: 'In a product import, an earlier row of the file has this SKU: the row was left out.',
  },
  ERR_PRODUCT_IMPORT_IN_PROGRESS: {
    kind: 'conflict',
    description: "The company's previous product import is still queued or running; wait for it to end (`GET /products/import/status`).",
  },
  ERR_CATEGORY_NOT_FOUND: {
    kind: 'not-found',
    description: "No category with that id in the caller's company (for a bulk delete: one of the ids; nothing was deleted).",
  },
  ERR_CATEGORY_INVALID_NAME: { kind: 'validation', where: ['answer', 'import'], description: "A category's name is 1 to 100 characters." },
  ERR_CATEGORY_INVALID_DESCRIPTION: { kind: 'validation', description: "A category's description is at most 1,000 characters." },
  ERR_CATEGORY_INVALID_POSITION: { kind: 'validation', description: "A category's `position` is a whole number from 0 to 1,000,000." },
  ERR_CATEGORY_INVALID_PARENT: {
    kind: 'validation',
    description: "A category's parent is another top-level category of the company: categories nest one level, so one with subcategories stays at the top.",
  },
  ERR_CATEGORY_NAME_IN_USE: {
    kind: 'conflict',
    description:
      'Another category under the same parent has this name (ignoring case); for a delete, a subcategory moving to the top level would take a name used there.',
  },
  ERR_CATEGORY_IN_USE: {
    kind: 'conflict',
    description: 'Products are still in these categories; move them first, or delete with `detach: true` to take them out.',
  },

  // ── Orders and order settings ──
  ERR_NO_ORDER_FOUND: { kind: 'not-found', description: "No order with that id in the caller's company (for a bulk delete: none of the ids)." },
  ERR_ORDER_STATUS_CONFLICT: {
    kind: 'conflict',
    description: 'The order changed since it was read, or its status does not allow this change (see the order statuses in the reference); read it again.',
  },
  ERR_ORDER_OUT_OF_STOCK: {
    kind: 'validation',
    description:
      'A product of the order has not enough stock for its quantity; `fields` names each such line (`items.<i>.quantity`) and its product. Nothing was written.',
  },
  ERR_ORDER_CURRENCY_MISMATCH: {
    kind: 'validation',
    description:
      "A product is priced in another currency than the order's (the currency of the order settings that apply, BRL by default): one order is in one currency.",
  },
  ERR_ORDER_PRODUCT_INACTIVE: { kind: 'validation', description: 'A product added to the order is inactive; activate it or choose another.' },
  ERR_ORDER_INVALID_ITEMS: { kind: 'validation', description: 'An order has 1 to 100 lines, each a product id and a whole quantity from 1 to 10,000.' },
  ERR_ORDER_INVALID_AMOUNT: {
    kind: 'validation',
    description:
      'Discount and shipping fee are whole minor units (cents) from 0, and the discount cannot take the total below 0; no amount may pass 1,000,000,000,000.',
  },
  ERR_ORDER_INVALID_DETAILS: { kind: 'validation', description: 'Notes have at most 2000 characters, the address 1000, the payment method 50.' },
  ERR_ORDER_TICKET_CONTACT_MISMATCH: {
    kind: 'validation',
    description: "The ticket is another contact's conversation: an order's ticket is one of its contact's.",
  },
  ERR_NO_ORDER_SETTING_FOUND: { kind: 'not-found', description: "No order setting with that id in the caller's company." },
  ERR_ORDER_SETTING_EXISTS: {
    kind: 'conflict',
    description: 'The company already has order settings for that connection (or a default row, for `connectionId` null); edit that row instead.',
  },
  ERR_ORDER_SETTING_INVALID_CURRENCY: { kind: 'validation', description: 'The currency is an ISO 4217 code such as `BRL` or `USD`.' },
  ERR_ORDER_SETTING_INVALID_TEXT: { kind: 'validation', description: 'A status message has at most 4000 characters, the payment instructions 2000.' },

  // ── Object storage (a company's own S3-compatible bucket) ──
  ERR_NO_OBJSTORE_CONFIG_FOUND: { kind: 'not-found', description: "No object-store config with that id in the caller's company." },
  ERR_OBJSTORE_INVALID_NAME: { kind: 'validation', description: "An object-store config's name is 1 to 100 characters." },
  ERR_OBJSTORE_INVALID_ENDPOINT: {
    kind: 'validation',
    description:
      "The endpoint is the service's origin (`https://host[:port]`, no path, credentials, query or fragment; plain http only where the server allows private URLs); only `s3` may leave it out.",
  },
  ERR_OBJSTORE_INVALID_REGION: {
    kind: 'validation',
    description: 'The region is 1 to 50 lowercase letters, digits and dashes (`us-east-1`, `auto`); blank gives `us-east-1`.',
  },
  ERR_OBJSTORE_INVALID_BUCKET: {
    kind: 'validation',
    description: 'The bucket is 3 to 63 letters, digits, `.`, `-` and `_`, starting and ending with a letter or digit.',
  },
  ERR_OBJSTORE_INVALID_PREFIX: {
    kind: 'validation',
    description: 'The prefix is up to 200 characters of folders made of letters, digits, `.`, `-` and `_`, separated by `/`.',
  },
  ERR_OBJSTORE_INVALID_PUBLIC_URL: {
    kind: 'validation',
    description: 'The public base URL is an https URL (plain http only where the server allows private URLs) without credentials, query or fragment.',
  },
  ERR_OBJSTORE_INVALID_ACCESS_KEY: { kind: 'validation', description: 'The access key id is 1 to 128 characters without spaces.' },
  ERR_OBJSTORE_INVALID_SECRET: { kind: 'validation', description: 'The secret access key is 1 to 256 characters without spaces.' },
  ERR_OBJSTORE_SECRET_REQUIRED: { kind: 'validation', description: 'A new object-store config needs its secret access key (`secretAccessKey`).' },
  ERR_OBJSTORE_SECRET_UNREADABLE: {
    kind: 'validation',
    description: 'The secret access key was sealed under another server key (`SECRETS_KEY` or `JWT_SECRET` changed) and cannot be opened; enter it again.',
  },
  ERR_OBJSTORE_CONFIG_IN_USE: {
    kind: 'conflict',
    description:
      'Files are stored through this config: it cannot be removed, nor its endpoint, bucket or prefix changed (they would no longer be found). Deactivate it, or add another config.',
  },
  ERR_OBJSTORE_UNREACHABLE: {
    kind: 'validation',
    description: 'The object store did not answer (the host does not resolve, refuses connections or is too slow); `step` says when. Check the endpoint.',
  },
  ERR_OBJSTORE_ACCESS_DENIED: {
    kind: 'validation',
    description:
      'The object store refused the key pair (unknown access key, wrong secret, or no permission on the bucket); `step` says for what. Check the keys and the bucket policy.',
  },
  ERR_OBJSTORE_BUCKET_NOT_FOUND: {
    kind: 'validation',
    description: 'The object store has no bucket of that name (or not in that region); `step` says when. Check the bucket, region and addressing style.',
  },
  ERR_OBJSTORE_CHECK_FAILED: {
    kind: 'validation',
    description: 'The object store answered the connection test with an error, or read back other bytes than it was given; `step` says at which step.',
  },
  ERR_OBJSTORE_UNAVAILABLE: {
    kind: 'unavailable',
    description:
      "The company's object store did not take or give back the file (down, or its keys revoked); try again later, or check its config with a connection test.",
  },

  // ── Company templates (the composer's reusable messages) and contact sellers ──
  ERR_NO_COMPANY_TEMPLATE_FOUND: {
    kind: 'not-found',
    description: "No template with that id that the caller may see (another company's, or another user's personal one).",
  },
  ERR_TEMPLATE_SHORTCUT_IN_USE: {
    kind: 'conflict',
    description: 'Another template of the company has this shortcut (ignoring case and accents); choose another.',
  },
  ERR_INVALID_TEMPLATE_SHORTCUT: {
    kind: 'validation',
    description: 'The shortcut is not 1 to 50 letters, digits, `-` or `_` (after an optional leading `/`), starting with a letter or digit.',
  },
  ERR_INVALID_TEMPLATE_MESSAGE: { kind: 'validation', description: 'The template message is blank or over 4,096 characters.' },
  ERR_INVALID_TEMPLATE_CATEGORY: { kind: 'validation', description: 'The template category is over 60 characters.' },
  ERR_CONTACT_SELLER_CHANGED: {
    kind: 'conflict',
    description: "The contact's responsible seller changed while this request was handled; read it again and retry.",
  },

  // ── The business channel (bizchat: the WhatsApp Business Cloud API) and its templates ──
  ERR_BIZCHAT_WINDOW_CLOSED: {
    kind: 'validation',
    where: ['answer', 'failureReason'],
    description:
      'The contact has not written to this bizchat connection in the last 24 hours, so only an approved template may be sent (`POST /send-bizchat-template`).',
  },
  ERR_NOT_BIZCHAT_CONNECTION: {
    kind: 'validation',
    description: "The connection (or the ticket's connection) is not a bizchat connection; templates exist only there.",
  },
  ERR_BIZCHAT_ACCOUNT_INCOMPLETE: {
    kind: 'validation',
    description: 'A bizchat connection needs its phone-number id (`externalId`) and `secrets.accessToken` and `secrets.wabaId`.',
  },
  // The provider delivers a number's messages to the connection holding its id: only who controls the number may register it.
  ERR_BIZCHAT_NUMBER_NOT_OWNED: {
    kind: 'validation',
    description:
      'The access token does not reach this phone-number id (`externalId`), or the number is not in the business account `secrets.wabaId`; give your own number, account and token.',
  },
  ERR_BIZCHAT_NUMBER_IN_USE: {
    kind: 'conflict',
    description: 'A bizchat connection (of any company) already has this phone-number id; remove it there first.',
  },
  ERR_BIZCHAT_RECIPIENT_REQUIRED: { kind: 'validation', description: 'Name the recipient: a `ticketId`, or a `chatappId` and a `number`.' },
  ERR_BIZCHAT_TEMPLATE_NOT_FOUND: {
    kind: 'not-found',
    where: ['answer', 'failureReason'],
    description: 'The business account has no template of this name in this language (provider code 132001); refresh the list and check both.',
  },
  ERR_BIZCHAT_TEMPLATE_NOT_APPROVED: {
    kind: 'validation',
    description: 'Only APPROVED templates may be sent; this one is pending, rejected, paused or disabled (`details.status`).',
  },
  ERR_BIZCHAT_TEMPLATE_PARAMETERS: {
    kind: 'validation',
    where: ['answer', 'failureReason'],
    description: "The values do not fit the template's variables (provider code 132000); `fields` names each part with what is missing or extra.",
  },
  ERR_BIZCHAT_TOKEN_INVALID: {
    kind: 'validation',
    where: ['answer', 'failureReason'],
    description: "The provider refused the connection's access token (code 190: expired or revoked); update `secrets.accessToken`.",
  },
  ERR_BIZCHAT_PROVIDER_UNAVAILABLE: { kind: 'unavailable', description: "The provider's Graph API did not answer or is rate limiting; try again later." },
  ERR_BIZCHAT_UNDELIVERABLE: {
    kind: 'validation',
    where: ['failureReason'],
    description: 'The provider could not deliver the message (code 131026: the number has no account, or cannot receive it).',
  },
  ERR_BIZCHAT_INVALID_REQUEST: {
    kind: 'validation',
    where: ['failureReason'],
    description: 'The provider refused the request as invalid (code 100: a wrong parameter, e.g. a media link it cannot fetch).',
  },
  ERR_BIZCHAT_REFUSED: {
    kind: 'validation',
    where: ['failureReason'],
    description: 'The provider refused the send for another reason; the reason continues with its code and text.',
  },
  // ── Dashboards and reports ──
  ERR_DATE_RANGE_TOO_LONG: { kind: 'validation', description: 'A dashboard or report covers at most 731 days (two years); choose a shorter range.' },
  ERR_DASHBOARD_REFRESH_TOO_SOON: {
    kind: 'too-many-requests',
    description: "The company's figures were refreshed moments ago; wait the seconds in Retry-After (a job also keeps them fresh).",
  },

  // ── Background jobs (internal: a client sees them only if a request schedules a job wrongly) ──
  ERR_UNKNOWN_JOB: { kind: 'validation', description: 'No background job of that name is defined.' },
  ERR_INVALID_JOB_TIME: { kind: 'validation', description: "The background job's run time is not a valid date." },
  ERR_INVALID_JOB_KEY: { kind: 'validation', description: "The background job's key is empty or too long." },
  ERR_INVALID_JOB_PAYLOAD: { kind: 'validation', description: "The background job's payload cannot be stored as JSON." },
  ERR_JOB_LEASE_LOST: { kind: 'conflict', description: 'Another worker took over the background job; this run stops without effect.' },
} as const satisfies Record<string, ErrorCodeEntry>;

/** A code in the catalog: what `DomainError` and `HttpError` take. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The kinds the catalog lists for a code (one or two). */
export function kindsOf(code: ErrorCode): readonly ErrorKind[] {
  const { kind }: ErrorCodeEntry = ERROR_CODES[code];
  return typeof kind === 'string' ? [kind] : kind;
}

/** Where clients see the code: error answers unless the catalog says otherwise. */
export function placesOf(code: ErrorCode): readonly ErrorCodePlace[] {
  const entry: ErrorCodeEntry = ERROR_CODES[code];
  return entry.where ?? ['answer'];
}

/** Whether a value from outside (another process, a stored row) is a catalog code. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CODES, value);
}
