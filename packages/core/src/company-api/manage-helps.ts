import { assertSuper, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock } from '../shared/ports.js';
import { toHelpView, type Help, type HelpView } from './help.js';
import type { Helps } from './ports.js';
import { cleanText, optionalText } from './values.js';

export interface HelpFields {
  readonly title?: string;
  readonly description?: string | null;
  readonly video?: string | null;
  readonly link?: string | null;
}

function applyFields(help: Help, fields: HelpFields): void {
  if (fields.title !== undefined) help.title = cleanText(fields.title, 'ERR_INVALID_HELP_TITLE', 1, 200);
  if (fields.description !== undefined) help.description = optionalText(fields.description, 'ERR_INVALID_HELP_DESCRIPTION', 10_000) ?? '';
  if (fields.video !== undefined) help.video = optionalText(fields.video, 'ERR_INVALID_HELP_VIDEO', 500);
  if (fields.link !== undefined) help.link = optionalText(fields.link, 'ERR_INVALID_HELP_LINK', 500);
}

async function findHelp(helps: Helps, id: number): Promise<Help> {
  const help = await helps.findById(id);
  if (!help) throw new NotFoundError('ERR_NO_HELP_FOUND');
  return help;
}

/** Help articles are read by everyone (the panel shows them to all operators). */
export class ListHelps {
  constructor(private readonly deps: { helps: Helps }) {}

  async execute(input: { actor: Actor; searchParam?: string; pageNumber?: number }) {
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.helps.list({ search: input.searchParam, page });
    return { helps: result.rows.map(toHelpView), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

export class ShowHelp {
  constructor(private readonly deps: { helps: Helps }) {}

  async execute(input: { actor: Actor; helpId: number }): Promise<HelpView> {
    return toHelpView(await findHelp(this.deps.helps, input.helpId));
  }
}

/** Super users write the help catalog. */
export class CreateHelp {
  constructor(private readonly deps: { helps: Helps; clock: Clock }) {}

  async execute(input: HelpFields & { actor: Actor; title: string }): Promise<HelpView> {
    assertSuper(input.actor);
    const now = this.deps.clock.now();
    const draft: Help = { id: 0, title: '', description: '', video: null, link: null, createdAt: now, updatedAt: now };
    applyFields(draft, input);
    const { id: _unused, ...fields } = draft;
    return toHelpView(await this.deps.helps.add(fields));
  }
}

export class UpdateHelp {
  constructor(private readonly deps: { helps: Helps; clock: Clock }) {}

  async execute(input: HelpFields & { actor: Actor; helpId: number }): Promise<HelpView> {
    assertSuper(input.actor);
    const help = await findHelp(this.deps.helps, input.helpId);
    applyFields(help, input);
    help.updatedAt = this.deps.clock.now();
    await this.deps.helps.update(help);
    return toHelpView(help);
  }
}

export class DeleteHelp {
  constructor(private readonly deps: { helps: Helps }) {}

  async execute(input: { actor: Actor; helpId: number }): Promise<void> {
    assertSuper(input.actor);
    const help = await findHelp(this.deps.helps, input.helpId);
    await this.deps.helps.remove(help.id);
  }
}
