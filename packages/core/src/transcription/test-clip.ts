import type { AudioClip } from './ports.js';

/**
 * Half a second of silence as a WAV file (16 kHz, mono, 16-bit PCM): what a credential's test call
 * sends. Every OpenAI-compatible service reads WAV, and silence costs the least a call can cost.
 */
export function silentClip(): AudioClip {
  const rate = 16_000;
  const samples = rate / 2;
  const data = Buffer.alloc(44 + samples * 2);
  data.write('RIFF', 0, 'ascii');
  data.writeUInt32LE(36 + samples * 2, 4);
  data.write('WAVE', 8, 'ascii');
  data.write('fmt ', 12, 'ascii');
  data.writeUInt32LE(16, 16); // size of the fmt chunk
  data.writeUInt16LE(1, 20); // PCM
  data.writeUInt16LE(1, 22); // mono
  data.writeUInt32LE(rate, 24);
  data.writeUInt32LE(rate * 2, 28); // bytes per second
  data.writeUInt16LE(2, 32); // bytes per frame
  data.writeUInt16LE(16, 34); // bits per sample
  data.write('data', 36, 'ascii');
  data.writeUInt32LE(samples * 2, 40);
  return { data, contentType: 'audio/wav', filename: 'test.wav' };
}
