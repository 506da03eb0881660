import { Migration } from '@mikro-orm/migrations';

/**
 * A chat-application session paired by phone number shows a code to type on the phone instead of
 * a QR code: kept beside the QR code while the connection waits for it (`status = 'qrcode'`).
 */
export class M0037PairingCode extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table connections add column if not exists pairing_code varchar(16)');
  }

  override async down(): Promise<void> {
    this.addSql('alter table connections drop column if exists pairing_code');
  }
}
