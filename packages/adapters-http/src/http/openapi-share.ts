/**
 * Writes once what the generated document repeats. The generator inlines every schema that has no
 * `meta({ id })` where it is used, so an embedded view, a list item or a path parameter is written
 * again in every operation and component that uses it. These passes move each repeated subtree into
 * `components` under a readable name (where it was used: a property, a parameter) and refer to it.
 * The document says the same: only where it is written changes.
 */

type Node = Record<string, unknown>;
type Holder = Node | unknown[];
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `JSON.stringify` with sorted keys: two subtrees that differ only in key order are the same. */
function canonical(value: unknown, memo: Map<object, string>): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const known = memo.get(value);
  if (known !== undefined) return known;
  const text = Array.isArray(value)
    ? `[${value.map((v) => canonical(v, memo)).join(',')}]`
    : `{${Object.keys(value)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${canonical((value as Node)[k], memo)}`)
        .join(',')}}`;
  memo.set(value, text);
  return text;
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/**
 * A name not in use: the first free of `names`, else the first numbered (`Status2`). Names come from
 * where a schema is used, never from its text, so editing a description renames nothing.
 */
function freeName(names: readonly string[], used: { has(name: string): boolean }): string {
  const candidates = names.filter(Boolean);
  const free = candidates.find((n) => !used.has(n));
  if (free) return free;
  const base = candidates[0] ?? 'Schema';
  let n = 2;
  while (used.has(`${base}${n}`)) n++;
  return `${base}${n}`;
}

/** The value that tells a member of a union from the others (`{ type: { enum: ['message'] } }` → `Message`), if any. */
function discriminator(member: unknown): string {
  if (!isNode(member) || !isNode(member.properties)) return '';
  for (const property of Object.values(member.properties)) {
    if (!isNode(property)) continue;
    const value = Array.isArray(property.enum) && property.enum.length === 1 ? property.enum[0] : property.const;
    if (typeof value === 'string' && value) return pascal(value);
  }
  return '';
}

const SUBSCHEMA = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas'];
const HINT_SUFFIX: Record<string, string> = { items: 'Item', additionalProperties: 'Value', prefixItems: 'Item' };

/** An object (an embedded view, a body), or a list or union of them: what is worth a name of its own. */
function describesObjects(schema: Node): boolean {
  if (isNode(schema.properties)) return true;
  if (isNode(schema.items)) return describesObjects(schema.items);
  return ['anyOf', 'oneOf', 'allOf'].some((k) => Array.isArray(schema[k]) && (schema[k] as unknown[]).some((s) => isNode(s) && describesObjects(s)));
}

/** Where a schema is written: replaced by a `$ref` by setting `holder[key]`. */
interface Slot {
  readonly holder: Holder;
  readonly key: string | number;
  readonly node: Node;
  /** The name its place suggests (`contactList` → `ContactList`), and the same after its parent's. */
  readonly hint: string;
  readonly qualified: string;
  readonly parent: Slot | undefined;
  replaced?: boolean;
}

type Doc = { paths?: Record<string, Record<string, unknown>>; components?: Record<string, Record<string, unknown> | undefined> };

/** Every operation of the document with its `operationId`. */
function operationsOf(doc: Doc): Array<{ id: string; op: Node }> {
  const found: Array<{ id: string; op: Node }> = [];
  for (const item of Object.values(doc.paths ?? {}))
    for (const op of Object.values(item)) if (isNode(op)) found.push({ id: typeof op.operationId === 'string' ? op.operationId : '', op });
  return found;
}

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/**
 * Path and query parameters written once: the same parameter (name, place, schema, description) of
 * several operations becomes a `components/parameters` entry named after it. A description the
 * generator copied from the schema onto the parameter is kept on the parameter only.
 */
export function shareRepeatedParameters(doc: Doc): void {
  const memo = new Map<object, string>();
  const uses = new Map<string, Array<{ list: unknown[]; index: number; parameter: Node }>>();
  for (const { op } of operationsOf(doc)) {
    if (!Array.isArray(op.parameters)) continue;
    op.parameters.forEach((parameter, index, list) => {
      if (!isNode(parameter) || '$ref' in parameter) return;
      const schema = parameter.schema;
      if (isNode(schema) && typeof parameter.description === 'string' && schema.description === parameter.description) delete schema.description;
      const key = canonical(parameter, memo);
      (uses.get(key) ?? uses.set(key, []).get(key)!).push({ list, index, parameter });
    });
  }
  const components = (doc.components ??= {});
  const shared = (components.parameters ??= {});
  const used = new Set(Object.keys(shared));
  for (const list of uses.values()) {
    if (list.length < 2) continue;
    const { parameter } = list[0]!;
    const base = pascal(String(parameter.name));
    const name = freeName([base, `${base}${pascal(String(parameter.in))}`], used);
    used.add(name);
    shared[name] = parameter;
    for (const use of list) use.list[use.index] = ref('parameters', name);
  }
  if (!Object.keys(shared).length) delete components.parameters;
}

/**
 * Schemas written once: each subtree (an object, a list, a union) written in several places, or
 * written where a component already says the same, becomes (or refers to) a `components/schemas`
 * entry. Larger subtrees go first, so what they contain is counted once. A subtree moves only when
 * its references cost less than its copies, so small schemas (`{ "type": "string" }`) stay inline.
 */
export function shareRepeatedSchemas(doc: Doc, minSaving = 200): void {
  const components = (doc.components ??= {});
  const schemas = (components.schemas ??= {});
  const memo = new Map<object, string>();
  const slots: Slot[] = [];
  const visit = (node: Node, hint: string, qualified: string, parent: Slot | undefined) => {
    const child = (holder: Holder, key: string | number, childHint: string, childQualified: string) => {
      const value = (holder as Record<string | number, unknown>)[key];
      if (!isNode(value)) return;
      const slot: Slot = { holder, key, node: value, hint: childHint, qualified: childQualified, parent };
      slots.push(slot);
      visit(value, childHint, childQualified, slot);
    };
    for (const k of SUBSCHEMA) child(node, k, `${hint}${HINT_SUFFIX[k] ?? pascal(k)}`, `${qualified}${HINT_SUFFIX[k] ?? pascal(k)}`);
    for (const k of SUBSCHEMA_LISTS) {
      const list = node[k];
      if (!Array.isArray(list)) continue;
      // A member of a union is named after its parent, and after the value that tells it from the others where it has one.
      for (let i = 0; i < list.length; i++) child(list, i, `${hint}${HINT_SUFFIX[k] ?? ''}`, `${qualified}${HINT_SUFFIX[k] ?? discriminator(list[i])}`);
    }
    for (const k of SUBSCHEMA_MAPS) {
      const map = node[k];
      if (isNode(map)) for (const name of Object.keys(map)) child(map, name, pascal(name), `${qualified}${pascal(name)}`);
    }
  };
  /** A schema at the root of a place (a parameter, a body, a response): a slot, and the parent of its subtrees' slots. */
  const visitSlot = (holder: Holder, key: string | number, hint: string) => {
    const value = (holder as Record<string | number, unknown>)[key];
    if (!isNode(value)) return;
    const slot: Slot = { holder, key, node: value, hint, qualified: hint, parent: undefined };
    slots.push(slot);
    visit(value, hint, hint, slot);
  };
  const roots = new Map<string, string>();
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isNode(schema)) continue;
    roots.set(canonical(schema, memo), name);
    visit(schema, name, name, undefined);
  }
  const content = (holder: unknown, hint: string) => {
    if (!isNode(holder) || !isNode(holder.content)) return;
    for (const media of Object.values(holder.content)) if (isNode(media)) visitSlot(media, 'schema', hint);
  };
  for (const parameter of Object.values(components.parameters ?? {})) if (isNode(parameter)) visitSlot(parameter, 'schema', pascal(String(parameter.name)));
  for (const [name, response] of Object.entries(components.responses ?? {})) content(response, pascal(name));
  for (const { id, op } of operationsOf(doc)) {
    const base = pascal(id);
    if (Array.isArray(op.parameters)) for (const p of op.parameters) if (isNode(p) && !('$ref' in p)) visitSlot(p, 'schema', pascal(String(p.name)));
    content(op.requestBody, `${base}Body`);
    for (const [status, response] of Object.entries(isNode(op.responses) ? op.responses : {}))
      content(response, `${base}${/^2/.test(status) ? '' : status}Response`);
  }

  const groups = new Map<string, Slot[]>();
  for (const slot of slots) {
    const key = canonical(slot.node, memo);
    if (key.length < 40) continue;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(slot);
  }
  const live = (slot: Slot) => {
    for (let s: Slot | undefined = slot; s; s = s.parent) if (s.replaced) return false;
    return true;
  };
  const used = new Set(Object.keys(schemas));
  for (const [key, group] of [...groups].sort((a, b) => b[0].length - a[0].length)) {
    const present = group.filter(live);
    const existing = roots.get(key);
    if (existing) {
      for (const slot of present) {
        (slot.holder as Record<string | number, unknown>)[slot.key] = ref('schemas', existing);
        slot.replaced = true;
      }
      continue;
    }
    if (present.length < 2 || !describesObjects(present[0]!.node)) continue;
    const refLength = 32 + present[0]!.hint.length;
    if ((present.length - 1) * key.length - present.length * refLength < minSaving) continue;
    const hints = new Map<string, number>();
    for (const slot of present) hints.set(slot.hint, (hints.get(slot.hint) ?? 0) + 1);
    const common = [...hints].sort((a, b) => b[1] - a[1])[0]![0];
    const name = freeName([common, present[0]!.qualified], used);
    used.add(name);
    schemas[name] = present[0]!.node;
    for (const [i, slot] of present.entries()) {
      (slot.holder as Record<string | number, unknown>)[slot.key] = ref('schemas', name);
      // The first copy lives on as the component: what it contains is still in the document.
      if (i > 0) slot.replaced = true;
    }
  }
}
