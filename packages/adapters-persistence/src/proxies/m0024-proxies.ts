import { Migration } from '@mikro-orm/migrations';

/**
 * Proxy pools for session connections: the platform's (`company_id` null) and each company's own,
 * with the password sealed by the server's SecretCipher (never in clear) and the health job's
 * findings; and which proxy each connection goes through (one row per connection, removed with the
 * connection or the proxy). Assignment counts per proxy are read from `proxy_assignments`.
 */
export class M0024Proxies extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table proxies (
      id serial primary key,
      company_id int references companies(id) on delete cascade,
      name varchar(100) not null,
      protocol varchar(10) not null check (protocol in ('http', 'https', 'socks4', 'socks5')),
      host varchar(253) not null,
      port int not null check (port >= 1 and port <= 65535),
      username varchar(255),
      password_sealed text,
      country varchar(2),
      max_connections int not null check (max_connections >= 1 and max_connections <= 1000),
      status varchar(10) not null check (status in ('healthy', 'degraded', 'failing', 'disabled')),
      disabled_reason varchar(500),
      fail_count int not null default 0,
      last_error varchar(500),
      last_latency_ms int,
      last_check_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index proxies_company_id_idx on proxies (company_id)');
    this.addSql(`create table proxy_assignments (
      connection_id int primary key references connections(id) on delete cascade,
      company_id int not null references companies(id) on delete cascade,
      proxy_id int not null references proxies(id) on delete cascade,
      assigned_at timestamptz not null
    )`);
    this.addSql('create index proxy_assignments_proxy_id_idx on proxy_assignments (proxy_id)');
    this.addSql('create index proxy_assignments_company_id_idx on proxy_assignments (company_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists proxy_assignments');
    this.addSql('drop table if exists proxies');
  }
}
