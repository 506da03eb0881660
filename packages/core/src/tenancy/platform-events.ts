import type { RealtimeEventOf, RealtimeEvents } from '../realtime/ports.js';

/**
 * What changed on the platform, for the super users' screens (companies, plans, the platform's
 * settings such as the white label): which record, so that their lists read it again.
 */
export type PlatformChange =
  | { readonly action: 'company'; readonly change: 'create' | 'update' | 'delete'; readonly companyId: number }
  | { readonly action: 'plan'; readonly change: 'create' | 'update' | 'delete'; readonly planId: number }
  | { readonly action: 'setting'; readonly key: string };

/** `company-<id>-platform`: sent to the super users of every company that has them. */
export type PlatformEvent = RealtimeEventOf<'platform', PlatformChange>;

/** The companies whose namespaces super users listen on. */
export interface SuperUserCompanies {
  superUserCompanyIds(): Promise<number[]>;
}

/** Tells every super user, wherever their company is, of a change to the platform's records. */
export class PlatformFrames {
  constructor(private readonly deps: { supers: SuperUserCompanies; realtime: RealtimeEvents<PlatformEvent> }) {}

  async publish(change: PlatformChange): Promise<void> {
    for (const companyId of await this.deps.supers.superUserCompanyIds()) await this.deps.realtime.publish(companyId, { entity: 'platform', data: change });
  }

  /**
   * The use case, and after each success the change it made, told to the super users. `decorates`
   * names the use case inside (the architecture tests read what it can refuse from its class).
   */
  announcing<U extends { execute(input: never): Promise<unknown> }>(
    useCase: U,
    change: (input: Parameters<U['execute']>[0], output: Awaited<ReturnType<U['execute']>>) => PlatformChange,
  ): { readonly execute: U['execute']; readonly decorates: U } {
    const execute = async (input: Parameters<U['execute']>[0]) => {
      const output = (await useCase.execute(input as never)) as Awaited<ReturnType<U['execute']>>;
      await this.publish(change(input, output));
      return output;
    };
    return { decorates: useCase, execute: execute as U['execute'] };
  }
}
