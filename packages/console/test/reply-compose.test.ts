import { expect } from 'chai';
import { composeReplies, quickReplyQuery, rememberSignature, signatureOn, signed } from '../src/replies/compose.js';
import { SERVICE_WINDOW_MS, serviceWindow } from '../src/replies/service-window.js';

const file = (name: string) => new File([name], name);
const summary = (list: ReturnType<typeof composeReplies>) => list.map((r) => [r.body, r.draft, (r.files ?? []).map((f) => f.name)]);

describe('console: what the reply box sends', () => {
  it('a text alone is one reply; an empty box none', () => {
    expect(summary(composeReplies({ ticketId: 1, text: ' hi ', attachments: [], isPrivate: false, signature: null }))).to.deep.equal([['hi', 'hi', []]]);
    expect(composeReplies({ ticketId: 1, text: '  ', attachments: [], isPrivate: false, signature: null })).to.deep.equal([]);
  });

  it('one reply per file with its own caption; the text captions the first file when it has none', () => {
    const a = file('a.pdf');
    const b = file('b.png');
    expect(
      summary(
        composeReplies({
          ticketId: 1,
          text: 'the papers',
          attachments: [
            { file: a, caption: '' },
            { file: b, caption: ' the photo ' },
          ],
          isPrivate: false,
          signature: null,
        }),
      ),
    ).to.deep.equal([
      ['the papers', 'the papers', ['a.pdf']],
      ['the photo', 'the photo', ['b.png']],
    ]);
  });

  it('with a caption on the first file, the text goes first on its own', () => {
    const a = file('a.pdf');
    expect(
      summary(composeReplies({ ticketId: 1, text: 'hello', attachments: [{ file: a, caption: 'invoice' }], isPrivate: false, signature: null })),
    ).to.deep.equal([
      ['hello', 'hello', []],
      ['invoice', 'invoice', ['a.pdf']],
    ]);
  });

  it('signs every text the contact reads with the name in bold on its own line, never a note nor a bare file', () => {
    const sent = composeReplies({
      ticketId: 1,
      text: 'hi',
      attachments: [
        { file: file('a.pdf'), caption: 'invoice' },
        { file: file('b.pdf'), caption: '' },
      ],
      isPrivate: false,
      signature: 'Ana Lima',
    });
    expect(summary(sent)).to.deep.equal([
      ['*Ana Lima:*\nhi', 'hi', []],
      ['*Ana Lima:*\ninvoice', 'invoice', ['a.pdf']],
      ['', '', ['b.pdf']],
    ]);
    expect(composeReplies({ ticketId: 1, text: 'for us', attachments: [], isPrivate: true, signature: 'Ana Lima' })[0]).to.include({
      body: 'for us',
      isPrivate: true,
    });
    expect(signed('Bo', 'x')).to.equal('*Bo:*\nx');
  });

  it('the signature is remembered per user, off until turned on', () => {
    const data = new Map<string, string>();
    const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
    expect(signatureOn(storage, 7)).to.equal(false);
    rememberSignature(storage, 7, true);
    expect(signatureOn(storage, 7)).to.equal(true);
    expect(signatureOn(storage, 8)).to.equal(false);
    rememberSignature(storage, 7, false);
    expect(signatureOn(storage, 7)).to.equal(false);
  });

  it('a quick reply is looked for while the box holds `/` and a word', () => {
    expect(quickReplyQuery('/')).to.equal('');
    expect(quickReplyQuery('/boas')).to.equal('boas');
    expect(quickReplyQuery('/boas vindas')).to.equal(null);
    expect(quickReplyQuery('hello /boas')).to.equal(null);
    expect(quickReplyQuery('/a\n')).to.equal(null);
  });
});

describe("console: the business channel's 24-hour window", () => {
  const at = (iso: string, fromMe: boolean, isPrivate = false) => ({ createdAt: iso, fromMe, isPrivate });
  const last = Date.parse('2026-03-01T10:00:00Z');

  it("is open until 24 hours after the contact's last message, whatever was sent since", () => {
    const messages = [
      at('2026-02-28T09:00:00Z', false),
      at('2026-03-01T10:00:00Z', false),
      at('2026-03-01T12:00:00Z', true),
      at('2026-03-01T13:00:00Z', true, true),
    ];
    expect(serviceWindow(messages, last + 1000)).to.deep.equal({ kind: 'open', closesAt: last + SERVICE_WINDOW_MS });
    expect(serviceWindow(messages, last + SERVICE_WINDOW_MS)).to.deep.equal({ kind: 'open', closesAt: last + SERVICE_WINDOW_MS });
    expect(serviceWindow(messages, last + SERVICE_WINDOW_MS + 1)).to.deep.equal({ kind: 'closed', since: last + SERVICE_WINDOW_MS });
  });

  it('is unknown without a message of the contact among those loaded (the server decides)', () => {
    expect(serviceWindow([at('2026-03-01T12:00:00Z', true)], last)).to.deep.equal({ kind: 'unknown' });
    expect(serviceWindow([], last)).to.deep.equal({ kind: 'unknown' });
  });
});
