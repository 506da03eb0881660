import { checkSettingValue, settingDefinition, settingsOfScope } from '@servicedesk/core/settings/catalog';
import { expect } from 'chai';
import { companySettingsBySubject, controlOf, platformSettings, subjectOf } from '../src/screens/settings/catalog.js';
import { curlExample, newConnectionToken } from '../src/screens/settings/api-token.js';
import { strings } from '../src/screens/settings/strings.js';

describe('console: the settings screen and the backend’s catalog', () => {
  const company = settingsOfScope('company');

  it('shows every company key of the catalog under a subject of its own, with a label and an explanation in each language', () => {
    const shown = companySettingsBySubject().flatMap((g) => g.settings.map((d) => d.key));
    expect(shown).to.have.members(company.map((d) => d.key));
    for (const def of company) {
      expect(subjectOf(def.key), def.key).to.not.equal('other');
      for (const language of ['en', 'pt-BR', 'es'] as const) {
        const texts = (strings[language].keys as Record<string, { label: string; help: string } | undefined>)[def.key];
        expect(texts?.label, `${language} ${def.key}`).to.be.a('string').and.not.empty;
        expect(texts?.help, `${language} ${def.key}`).to.be.a('string').and.not.empty;
      }
    }
  });

  it('edits each key with the control its rule asks for, offering only values the server takes', () => {
    for (const def of company) {
      const control = controlOf(def);
      expect(control, def.key).to.not.equal(null);
      if (control?.kind === 'switch') {
        expect(checkSettingValue(def, control.on), def.key).to.equal(null);
        expect(checkSettingValue(def, control.off), def.key).to.equal(null);
      }
      if (control?.kind === 'select') for (const v of control.values) expect(checkSettingValue(def, v), `${def.key}=${v}`).to.equal(null);
    }
    expect(controlOf(settingDefinition('userRating')!)).to.deep.equal({ kind: 'switch', on: 'enabled', off: 'disabled' });
    expect(controlOf(settingDefinition('closeTicketOnTransfer')!)).to.deep.equal({ kind: 'switch', on: 'true', off: 'false' });
    expect(controlOf(settingDefinition('scheduleType')!)).to.deep.equal({ kind: 'select', values: ['disabled', 'company', 'queue'] });
    expect(controlOf(settingDefinition('hoursCloseTicketsAuto')!)).to.deep.equal({ kind: 'number', min: 0, max: 8760 });
    expect(controlOf(settingDefinition('timezone')!)).to.deep.equal({ kind: 'timezone' });
    expect(controlOf(settingDefinition('lgpdLink')!)).to.deep.equal({ kind: 'text', max: 500, long: false });
  });

  it('offers super users every platform key but the uploaded files, each with a control, texts in each language and only values the server takes', () => {
    const platform = platformSettings();
    expect(platform.map((d) => d.key)).to.have.members(
      settingsOfScope('global')
        .filter((d) => d.rule.kind !== 'file')
        .map((d) => d.key),
    );
    expect(platform.map((d) => d.key)).to.include('userCreation');
    for (const def of platform) {
      const control = controlOf(def);
      expect(control, def.key).to.not.equal(null);
      if (control?.kind === 'switch') {
        expect(checkSettingValue(def, control.on), def.key).to.equal(null);
        expect(checkSettingValue(def, control.off), def.key).to.equal(null);
      }
      expect(checkSettingValue(def, def.defaultValue), `${def.key}'s default`).to.equal(null);
      for (const language of ['en', 'pt-BR', 'es'] as const) {
        const texts = (strings[language].keys as Record<string, { label: string; help: string } | undefined>)[def.key];
        expect(texts?.label, `${language} ${def.key}`).to.be.a('string').and.not.empty;
      }
    }
    expect(controlOf(settingDefinition('primaryColorLight')!)).to.deep.equal({ kind: 'color' });
    expect(controlOf(settingDefinition('appLogoLight')!), 'a file is uploaded, not typed').to.equal(null);
  });

  it('generates tokens the connection routes accept, never twice the same, and a curl line for this server', () => {
    const a = newConnectionToken();
    expect(a).to.match(/^[0-9a-f]{64}$/);
    expect(newConnectionToken()).to.not.equal(a);
    expect(curlExample('https://desk.example.com', a)).to.include("curl -X POST 'https://desk.example.com/api/messages/send'").and.include(`Bearer ${a}`);
  });
});
