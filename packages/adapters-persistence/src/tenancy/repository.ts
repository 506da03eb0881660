import type { Companies, Company, CompanyQuery, NewCompany, NewPlan, Page, Plan, Plans } from '@servicedesk/core';
import { raw } from '@mikro-orm/core';
import { CompanySchema, PlanSchema } from './schema.js';
import { MikroOrmRepository } from '../shared/context.js';
import { searchWhere } from '../shared/search.js';

const READ = { disableIdentityMap: true } as const;

export class MikroOrmCompanies extends MikroOrmRepository implements Companies {
  async findById(id: number) {
    return this.em.findOne(CompanySchema, { id }, READ);
  }
  async findByEmail(email: string) {
    return this.em.findOne(CompanySchema, { email }, { ...READ, orderBy: { id: 'asc' } });
  }
  async list(q: CompanyQuery): Promise<Page<Company>> {
    const [rows, count] = await this.em.findAndCount(CompanySchema, searchWhere(['name', 'email'], q.search), {
      ...READ,
      orderBy: { id: 'asc' },
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }
  async listAll() {
    return this.em.find(CompanySchema, {}, { ...READ, orderBy: { id: 'asc' } });
  }
  async countByPlan(planId: number) {
    return this.em.count(CompanySchema, { planId });
  }
  async add(company: NewCompany): Promise<Company> {
    const id = (await this.em.insert(CompanySchema, company as Company)) as number;
    return { ...company, id };
  }
  async update(company: Company) {
    const { id, ...fields } = company;
    await this.em.nativeUpdate(CompanySchema, { id }, fields);
  }
  async remove(id: number) {
    await this.em.nativeDelete(CompanySchema, { id });
  }
}

export class MikroOrmPlans extends MikroOrmRepository implements Plans {
  async findById(id: number) {
    return this.em.findOne(PlanSchema, { id }, READ);
  }
  async findByName(name: string) {
    return this.em.findOne(PlanSchema, { [raw((a) => `lower(${a}.name) = ?`, [name.toLowerCase()])]: [] }, READ);
  }
  async list(q: { search?: string; onlyPublic?: boolean }) {
    return this.em.find(PlanSchema, { ...(q.onlyPublic ? { isPublic: true } : {}), ...searchWhere(['name'], q.search) }, { ...READ, orderBy: { id: 'asc' } });
  }
  async add(plan: NewPlan): Promise<Plan> {
    const id = (await this.em.insert(PlanSchema, plan as Plan)) as number;
    return { ...plan, id };
  }
  async update(plan: Plan) {
    const { id, ...fields } = plan;
    await this.em.nativeUpdate(PlanSchema, { id }, fields);
  }
  async remove(id: number) {
    await this.em.nativeDelete(PlanSchema, { id });
  }
}
