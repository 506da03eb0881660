import { foldForSearch } from '../shared/text.js';
import type { Company, NewCompany } from '../tenancy/company.js';
import type { NewPlan, Plan } from '../tenancy/plan.js';
import type { Companies, CompanyQuery, Plans } from '../tenancy/ports.js';
import { InMemoryTable, slice } from './table.js';

export class InMemoryCompanies implements Companies {
  readonly table = new InMemoryTable<Company>();
  /** Called on removal so that other in-memory stores can drop the company's rows, like ON DELETE CASCADE. */
  onRemove: Array<(companyId: number) => void> = [];

  async findById(id: number) {
    return this.table.get(id);
  }
  async findByEmail(email: string) {
    return this.table.find((c) => c.email === email);
  }
  async list(q: CompanyQuery) {
    const term = q.search ? foldForSearch(q.search) : '';
    const rows = this.table.filter((c) => !term || foldForSearch(`${c.name} ${c.email ?? ''}`).includes(term)).sort((a, b) => a.id - b.id);
    return slice(rows, q.page);
  }
  async listAll() {
    return this.table.filter(() => true).sort((a, b) => a.id - b.id);
  }
  async countByPlan(planId: number) {
    return this.table.filter((c) => c.planId === planId).length;
  }
  async add(company: NewCompany) {
    return this.table.insert(company);
  }
  async update(company: Company) {
    this.table.replace(company);
  }
  async remove(id: number) {
    this.table.delete(id);
    for (const f of this.onRemove) f(id);
  }
}

export class InMemoryPlans implements Plans {
  readonly table = new InMemoryTable<Plan>();

  async findById(id: number) {
    return this.table.get(id);
  }
  async findByName(name: string) {
    return this.table.find((p) => p.name.toLowerCase() === name.toLowerCase());
  }
  async list(q: { search?: string; onlyPublic?: boolean }) {
    const term = q.search ? foldForSearch(q.search) : '';
    return this.table.filter((p) => (!q.onlyPublic || p.isPublic) && (!term || foldForSearch(p.name).includes(term))).sort((a, b) => a.id - b.id);
  }
  async add(plan: NewPlan) {
    return this.table.insert(plan);
  }
  async update(plan: Plan) {
    this.table.replace(plan);
  }
  async remove(id: number) {
    this.table.delete(id);
  }
}
