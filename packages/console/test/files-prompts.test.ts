import { QueryClient } from '@tanstack/react-query';
import { expect } from 'chai';
import i18next from 'i18next';
import { applyFrame, keys } from '../src/realtime/apply-frame.js';
import { fileKind, formatSize, storedFileInfo } from '../src/screens/files/file-kind.js';
import { strings } from '../src/screens/files/strings.js';

describe('console: the file lists’ files in words, and the prompt and file frames', () => {
  it('names the kind of a file by its media type, anything unknown a document', () => {
    expect(fileKind('image/png')).to.equal('image');
    expect(fileKind('audio/ogg; codecs=opus')).to.equal('audio');
    expect(fileKind('VIDEO/MP4')).to.equal('video');
    expect(fileKind('application/pdf')).to.equal('pdf');
    expect(fileKind('application/zip')).to.equal('document');
    expect(fileKind('')).to.equal('document');
    expect(fileKind(null)).to.equal('document');
  });

  it('gives a size in the largest unit under which it stays at least 1, in the reader’s language', () => {
    expect(formatSize(11, 'en')).to.equal('11 byte');
    expect(formatSize(512 * 1024 + 12, 'en')).to.equal('512 kB');
    expect(formatSize(1536 * 1024, 'en')).to.equal('1.5 MB');
    expect(formatSize(1536 * 1024, 'pt-BR')).to.equal('1,5 MB');
    expect(formatSize(-3, 'en')).to.equal('0 byte');
  });

  it('says an uploaded file’s name, kind and size, and nothing before an upload', async () => {
    const t = await i18next.createInstance({ lng: 'en', resources: { en: { translation: strings.en } } }).init();
    expect(storedFileInfo(t, 'en', { path: 'prices.pdf', mediaType: 'application/pdf', size: 2048 })).to.equal('prices.pdf (PDF, 2 kB)');
    expect(storedFileInfo(t, 'en', { path: null, mediaType: null, size: null })).to.equal(null);
  });

  it('reads the assistants again on a prompt frame, and the file lists on a file frame', async () => {
    const client = new QueryClient();
    client.setQueryData([...keys.prompts, 'page', ''], { prompts: [] });
    client.setQueryData([...keys.fileLists, 'page', ''], { files: [] });
    applyFrame(client, { event: 'company-1-prompt', seq: 1, data: { action: 'delete', promptId: 3 } });
    expect(client.getQueryState([...keys.prompts, 'page', ''])!.isInvalidated).to.equal(true);
    expect(client.getQueryState([...keys.fileLists, 'page', ''])!.isInvalidated).to.equal(false);
    applyFrame(client, { event: 'company-1-file', seq: 2, data: { action: 'delete', fileId: 7 } });
    expect(client.getQueryState([...keys.fileLists, 'page', ''])!.isInvalidated).to.equal(true);
  });
});
