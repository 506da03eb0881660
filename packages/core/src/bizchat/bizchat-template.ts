import type { TemplateSend } from '../connections/channel-messages.js';
import { FieldsValidationError, ValidationError } from '../shared/errors.js';

export type { TemplateSend };

/** Meta's review states; only `APPROVED` templates may be sent. */
export type BizchatTemplateStatus =
  | 'APPROVED'
  | 'PENDING'
  | 'REJECTED'
  | 'PAUSED'
  | 'DISABLED'
  | 'IN_APPEAL'
  | 'PENDING_DELETION'
  | 'DELETED'
  | 'LIMIT_EXCEEDED';

/** One component of a template as Meta describes it (`HEADER`, `BODY`, `FOOTER`, `BUTTONS`). */
export interface BizchatTemplateComponent {
  readonly type: string;
  readonly format?: string;
  readonly text?: string;
  readonly buttons?: ReadonlyArray<{ readonly type: string; readonly text?: string; readonly url?: string }>;
}

/** What a send must fill: header values (a text's variables, or one media link), body values, one value per dynamic button. */
export interface TemplateParameterCounts {
  readonly header: number;
  /** `TEXT`, or the media a header shows (`IMAGE`, `VIDEO`, `DOCUMENT`); null without a header. */
  readonly headerFormat: string | null;
  /** The body's variables in order of first appearance: `1`, `2`… or the names of a NAMED template. */
  readonly body: readonly string[];
  /** Indexes of the buttons that take a value (a URL with a variable, a coupon code). */
  readonly buttons: readonly number[];
}

/** A message template of a connection's business account, as last read from the provider. */
export interface BizchatTemplate {
  id: number;
  companyId: number;
  connectionId: number;
  /** The business account (WABA) it belongs to. */
  wabaId: string;
  /** The provider's id of the template. */
  metaId: string;
  name: string;
  language: string;
  status: string;
  category: string;
  parameterFormat: 'POSITIONAL' | 'NAMED';
  components: BizchatTemplateComponent[];
  parameters: TemplateParameterCounts;
  syncedAt: Date;
}

export type NewBizchatTemplate = Omit<BizchatTemplate, 'id'>;

/** The values a send gives a template's variables. */
export interface TemplateParameters {
  readonly header?: readonly string[];
  readonly body?: readonly string[];
  readonly buttons?: readonly string[];
}

const VARIABLE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const MEDIA_HEADERS = ['IMAGE', 'VIDEO', 'DOCUMENT'];
const MAX_VALUE = 1024;

function variablesOf(text: string | undefined): string[] {
  const names: string[] = [];
  for (const m of (text ?? '').matchAll(VARIABLE)) if (!names.includes(m[1]!)) names.push(m[1]!);
  return names;
}

const componentOf = (components: readonly BizchatTemplateComponent[], type: string) => components.find((c) => c.type.toUpperCase() === type);

/** Counts what a template's components ask a send to fill. */
export function parameterCounts(components: readonly BizchatTemplateComponent[]): TemplateParameterCounts {
  const header = componentOf(components, 'HEADER');
  const headerFormat = header ? (header.format ?? 'TEXT').toUpperCase() : null;
  const buttons = (componentOf(components, 'BUTTONS')?.buttons ?? []).flatMap((b, i) => {
    const type = b.type.toUpperCase();
    return (type === 'URL' && variablesOf(b.url).length > 0) || type === 'COPY_CODE' ? [i] : [];
  });
  return {
    header: headerFormat === null ? 0 : MEDIA_HEADERS.includes(headerFormat) ? 1 : variablesOf(header?.text).length,
    headerFormat,
    body: variablesOf(componentOf(components, 'BODY')?.text),
    buttons,
  };
}

/**
 * Checks the values against the template's variables: each part must hold exactly as many values
 * as it has variables (422 naming what is missing or extra), and only an approved template goes.
 */
export function assertSendable(template: BizchatTemplate, given: TemplateParameters): void {
  if (template.status !== 'APPROVED') throw new ValidationError('ERR_BIZCHAT_TEMPLATE_NOT_APPROVED', { status: template.status });
  const p = template.parameters;
  const fields: Array<{ path: string; message: string }> = [];
  const check = (part: string, expected: readonly string[], values: readonly string[] | undefined) => {
    const got = values ?? [];
    if (got.length < expected.length) fields.push({ path: `parameters.${part}`, message: `missing ${expected.slice(got.length).join(', ')}` });
    if (got.length > expected.length)
      fields.push({ path: `parameters.${part}`, message: `${got.length - expected.length} extra value(s): the ${part} takes ${expected.length}` });
    got.forEach((v, i) => {
      if (!v.trim() || v.length > MAX_VALUE) fields.push({ path: `parameters.${part}.${i}`, message: `must be 1 to ${MAX_VALUE} characters` });
    });
  };
  const headerNames =
    p.headerFormat && MEDIA_HEADERS.includes(p.headerFormat)
      ? [`${p.headerFormat.toLowerCase()} link`]
      : Array.from({ length: p.header }, (_, i) => `{{${i + 1}}}`);
  check('header', headerNames, given.header);
  check(
    'body',
    p.body.map((n) => `{{${n}}}`),
    given.body,
  );
  check(
    'buttons',
    p.buttons.map((i) => `button ${i}`),
    given.buttons,
  );
  if (p.headerFormat && MEDIA_HEADERS.includes(p.headerFormat) && given.header?.[0] && !/^https?:\/\//.test(given.header[0])) {
    fields.push({ path: 'parameters.header.0', message: 'must be an http(s) link to the media' });
  }
  if (fields.length) throw new FieldsValidationError('ERR_BIZCHAT_TEMPLATE_PARAMETERS', fields);
}

/** The text the conversation stores: the header, body and footer with the values in place. */
export function renderBizchatTemplate(template: BizchatTemplate, given: TemplateParameters): string {
  const fill = (text: string | undefined, names: readonly string[], values: readonly string[] | undefined) =>
    (text ?? '').replace(VARIABLE, (whole, name: string) => {
      const i = names.indexOf(name);
      return i >= 0 && values?.[i] !== undefined ? values[i]! : whole;
    });
  const header = componentOf(template.components, 'HEADER');
  const headerText = template.parameters.headerFormat === 'TEXT' ? fill(header?.text, variablesOf(header?.text), given.header) : '';
  const body = fill(componentOf(template.components, 'BODY')?.text, template.parameters.body, given.body);
  const footer = componentOf(template.components, 'FOOTER')?.text ?? '';
  return [headerText ? `*${headerText}*` : '', body, footer ? `_${footer}_` : ''].filter(Boolean).join('\n');
}

/** The provider's `template` object for the values (already checked by `assertSendable`). */
export function templateSend(template: BizchatTemplate, given: TemplateParameters): TemplateSend {
  const p = template.parameters;
  const components: Array<TemplateSend['components'][number]> = [];
  const named = template.parameterFormat === 'NAMED';
  if (p.headerFormat && given.header?.length) {
    const media = p.headerFormat.toLowerCase();
    components.push({
      type: 'header',
      parameters: MEDIA_HEADERS.includes(p.headerFormat)
        ? [{ type: media, [media]: { link: given.header[0] } }]
        : given.header.map((text) => ({ type: 'text', text })),
    });
  }
  if (given.body?.length) {
    components.push({ type: 'body', parameters: given.body.map((text, i) => ({ type: 'text', text, ...(named ? { parameter_name: p.body[i] } : {}) })) });
  }
  const buttons = componentOf(template.components, 'BUTTONS')?.buttons ?? [];
  p.buttons.forEach((index, i) => {
    const value = given.buttons?.[i];
    if (value === undefined) return;
    const coupon = buttons[index]?.type.toUpperCase() === 'COPY_CODE';
    components.push({
      type: 'button',
      sub_type: coupon ? 'copy_code' : 'url',
      index: String(index),
      parameters: [coupon ? { type: 'coupon_code', coupon_code: value } : { type: 'text', text: value }],
    });
  });
  return { name: template.name, language: template.language, components };
}
