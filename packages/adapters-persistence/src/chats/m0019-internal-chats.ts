import { Migration } from '@mikro-orm/migrations';

/**
 * Internal chats between a company's operators. `chat_members` keeps, per member, the id of the
 * last message they read (0: none): unread counts are derived from it (the others' messages after
 * it), so one member's read mark never touches another's. `chats.last_message_id` is the message
 * `last_message` summarises, so a slower writer never puts an older summary back.
 */
export class M0019InternalChats extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table chats (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      uuid uuid not null unique,
      title varchar(255) not null,
      owner_id int references users(id) on delete set null,
      last_message text not null default '',
      last_message_id int,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index chats_company_id_updated_at_idx on chats (company_id, updated_at)');
    this.addSql('create index chats_owner_id_idx on chats (owner_id)');
    this.addSql(`create table chat_members (
      chat_id int not null references chats(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      company_id int not null references companies(id) on delete cascade,
      last_read_message_id int not null default 0,
      primary key (chat_id, user_id)
    )`);
    this.addSql('create index chat_members_user_id_idx on chat_members (user_id)');
    this.addSql('create index chat_members_company_id_idx on chat_members (company_id)');
    this.addSql(`create table chat_messages (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      chat_id int not null references chats(id) on delete cascade,
      sender_id int references users(id) on delete set null,
      message text not null default '',
      media jsonb,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index chat_messages_chat_id_id_idx on chat_messages (chat_id, id)');
    this.addSql('create index chat_messages_company_id_idx on chat_messages (company_id)');
    this.addSql('create index chat_messages_sender_id_idx on chat_messages (sender_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists chat_messages');
    this.addSql('drop table if exists chat_members');
    this.addSql('drop table if exists chats');
  }
}
