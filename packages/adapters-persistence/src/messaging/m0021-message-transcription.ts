import { Migration } from '@mikro-orm/migrations';

/**
 * What a speech-to-text service heard in an audio message (`POST /transcription/:ticketId`), kept
 * beside its body (which is never replaced); null until the message is transcribed.
 */
export class M0021MessageTranscription extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table messages add column transcription text');
  }

  override async down(): Promise<void> {
    this.addSql('alter table messages drop column if exists transcription');
  }
}
