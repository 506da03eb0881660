import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import { applyTranscriptionFrame, type TranscriptionJob, transcriptionJobKey } from '../src/realtime/transcription-frames.js';

const job = (status: TranscriptionJob['status'], item: TranscriptionJob['items'][number]): TranscriptionJob => ({
  id: '0b6f3c2e-8f5c-4a57-9d0e-1c2b3a4d5e6f',
  ticketId: 42,
  status,
  total: 1,
  done: item.status === 'done' ? 1 : 0,
  failed: item.status === 'failed' ? 1 : 0,
  items: [item],
  error: null,
  createdAt: '2026-12-03T10:00:00.000Z',
  updatedAt: '2026-12-03T10:00:01.000Z',
  finishedAt: null,
});

describe('console: the transcription jobs’ frames', () => {
  it('keeps the latest state of a job under its key, for the "Transcribe" waiting on it', () => {
    const client = new QueryClient();
    const key = transcriptionJobKey('0b6f3c2e-8f5c-4a57-9d0e-1c2b3a4d5e6f');
    applyTranscriptionFrame(client, { action: 'update', job: job('running', { messageId: 'm1', status: 'pending', error: null }) });
    expect(client.getQueryData<TranscriptionJob>(key)!.status).to.equal('running');
    applyTranscriptionFrame(client, {
      action: 'update',
      job: job('failed', { messageId: 'm1', status: 'failed', error: 'ERR_TRANSCRIPTION_PROVIDER_REFUSED' }),
    });
    expect(client.getQueryData<TranscriptionJob>(key)!.items[0]).to.deep.equal({
      messageId: 'm1',
      status: 'failed',
      error: 'ERR_TRANSCRIPTION_PROVIDER_REFUSED',
    });
  });

  it('ignores a frame without a job', () => {
    const client = new QueryClient();
    applyTranscriptionFrame(client, { action: 'update' });
    applyTranscriptionFrame(client, { action: 'update', job: { id: 7 } });
    expect(client.getQueryCache().getAll()).to.have.length(0);
  });
});
