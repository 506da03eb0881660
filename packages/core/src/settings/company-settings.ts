import type { RealtimeEvents } from '../realtime/ports.js';
import type { SettingEvent } from './setting-events.js';
import { assertAdmin, isSuper, type Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import { checkSettingValue, settingDefinition, settingsOfScope, wireSettingValue } from './catalog.js';
import type { Settings } from './ports.js';

export interface SettingView {
  readonly key: string;
  readonly value: string;
}

/** Every company setting of the catalog, stored value or default. */
async function companyValues(settings: Settings, companyId: number): Promise<SettingView[]> {
  const stored = await settings.all(companyId);
  return settingsOfScope('company').map((d) => ({ key: d.key, value: stored.get(d.key) ?? d.defaultValue }));
}

function definitionOrNotFound(key: string) {
  const def = settingDefinition(key, 'company');
  if (!def) throw new NotFoundError('ERR_NO_SETTING_FOUND');
  return def;
}

/** Reads of the caller's company settings (any operator: the panel needs them to behave). */
export class GetCompanySettings {
  constructor(private readonly deps: { settings: Settings }) {}

  async list(input: { actor: Actor; companyId?: number }): Promise<SettingView[]> {
    const companyId = input.companyId ?? input.actor.companyId;
    if (companyId !== input.actor.companyId && !isSuper(input.actor)) throw new NotFoundError('ERR_NO_SETTING_FOUND');
    return companyValues(this.deps.settings, companyId);
  }

  /** The lineage's `companySettings` shape: one object, a property per key (booleans for the `boolean` keys). */
  async asObject(input: { actor: Actor; companyId?: number }): Promise<Record<string, string | boolean>> {
    const companyId = input.companyId ?? input.actor.companyId;
    return { companyId: String(companyId), ...Object.fromEntries((await this.list(input)).map((s) => [s.key, wireSettingValue(s.key, s.value)])) };
  }

  /** The lineage's `companySettingOne` shape: `{ <key>: <value> }` (a boolean for the `boolean` keys). */
  async oneAsObject(input: { actor: Actor; key: string }): Promise<Record<string, string | boolean>> {
    const setting = await this.one(input);
    return { [setting.key]: wireSettingValue(setting.key, setting.value) };
  }

  async one(input: { actor: Actor; key: string }): Promise<SettingView> {
    const def = definitionOrNotFound(input.key);
    const value = await this.deps.settings.get(input.actor.companyId, def.key);
    return { key: def.key, value: value ?? def.defaultValue };
  }
}

/** Admins change their company's settings, one allow-listed key at a time. */
export class UpdateCompanySetting {
  constructor(private readonly deps: { settings: Settings; clock: Clock; realtime: RealtimeEvents<SettingEvent> }) {}

  async execute(input: { actor: Actor; key: string; value: string }): Promise<SettingView> {
    assertAdmin(input.actor);
    const def = definitionOrNotFound(input.key);
    const problem = checkSettingValue(def, input.value);
    if (problem) throw new ValidationError(problem);
    await this.deps.settings.put(input.actor.companyId, def.key, input.value, this.deps.clock.now());
    const setting = { key: def.key, value: input.value };
    await this.deps.realtime.publish(input.actor.companyId, { entity: 'settings', data: { action: 'update', setting } });
    return setting;
  }
}
