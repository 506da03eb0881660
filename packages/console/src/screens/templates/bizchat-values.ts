import type { Schema } from '../../api/client.js';

type BizTemplate = Schema<'BizchatTemplate'>;

/** The values a template takes, per part, in the order the send's `parameters` give them. */
export interface TemplateValues {
  readonly header: string[];
  readonly body: string[];
  readonly buttons: string[];
}

export const emptyValues = (tpl: BizTemplate): TemplateValues => ({
  header: Array.from({ length: tpl.variables.header }, () => ''),
  body: tpl.variables.body.map(() => ''),
  buttons: tpl.variables.buttons.map(() => ''),
});

/** A text with `{{variable}}` replaced by the value typed for it (`names` in the order of `values`); one not typed yet stays as written. */
function filled(text: string, names: readonly string[], values: readonly string[]): string {
  return text.replace(/\{\{\s*([^}\s]+)\s*\}\}/g, (whole, name: string) => {
    const at = names.indexOf(name);
    return at >= 0 && values[at] ? values[at]! : whole;
  });
}

/** What the contact will read: the text header, the body and the footer with the values typed so far. */
export function templatePreview(tpl: BizTemplate, values: TemplateValues): string {
  const part = (type: string) => tpl.components.find((c) => c.type === type);
  const header = part('HEADER');
  const headerNames = values.header.map((_, i) => String(i + 1));
  const lines = [
    header?.format === 'TEXT' && header.text ? filled(header.text, headerNames, values.header) : null,
    filled(part('BODY')?.text ?? '', tpl.variables.body, values.body),
    part('FOOTER')?.text ?? null,
  ];
  return lines.filter((l): l is string => !!l).join('\n');
}
