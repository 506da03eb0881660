import { FLOW_LIMITS } from './flow-graph.js';

/** What a flow knows of the contact it talks to. */
export interface FlowContact {
  readonly name: string;
  readonly number: string;
  readonly email: string;
}

/** A contact field by the name templates and conditions use (`firstName` is the name's first word). */
export function contactValue(contact: FlowContact, field: string): string | undefined {
  switch (field) {
    case 'name':
      return contact.name;
    case 'firstName':
      return contact.name.trim().split(/\s+/)[0] ?? '';
    case 'number':
      return contact.number;
    case 'email':
      return contact.email;
    default:
      return undefined;
  }
}

/** How a filled-in value is written: as is, inside a URL, or inside a JSON string. */
export type TemplateEscape = 'none' | 'url' | 'json';

const escapeAs: Record<TemplateEscape, (v: string) => string> = {
  none: (v) => v,
  url: (v) => encodeURIComponent(v),
  json: (v) => JSON.stringify(v).slice(1, -1),
};

/**
 * `{{name}}` replaced by the flow's variable of that name, else the contact's field (`name`,
 * `firstName`, `number`, `email`); anything else is left as written.
 */
export function renderTemplate(text: string, variables: Readonly<Record<string, string>>, contact: FlowContact, escape: TemplateEscape = 'none'): string {
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,49})\s*\}\}/g, (whole, key: string) => {
    const value = Object.hasOwn(variables, key) ? variables[key] : contactValue(contact, key);
    return value === undefined ? whole : escapeAs[escape](value);
  });
}

/** A value as a variable holds it: text, at most the text limit. */
export function asVariable(value: unknown): string {
  const text =
    typeof value === 'string' ? value : value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.slice(0, FLOW_LIMITS.text);
}

/** The value at `a.b.0.c` in a JSON body (the whole body for an empty path); undefined when absent. */
export function valueAt(body: unknown, path: string): unknown {
  let at: unknown = body;
  for (const key of path.split('.').filter((k) => k !== '')) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Array.isArray(at) ? (/^\d+$/.test(key) ? at[Number(key)] : undefined) : Object.hasOwn(at, key) ? (at as Record<string, unknown>)[key] : undefined;
  }
  return at;
}
