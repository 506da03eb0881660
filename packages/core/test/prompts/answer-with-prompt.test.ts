import { expect } from 'chai';
import { HANDOVER_PHRASE, type PromptAnswer } from '../../src/prompts/prompt-answer.js';
import type { Message } from '../../src/messages/message.js';
import type { SpeechToTextCall } from '../../src/in-memory/transcription.js';
import { botWorld } from '../queues/bot-world.js';

const KEY = 'sk-proj-0123456789abcdef';

/**
 * Acme's bot world with an assistant: the prompt hands over to Support. `on: 'connection'` binds it
 * to the connection; `on: 'queue'` to Sales, the connection's only queue.
 */
async function assistantWorld(on: 'connection' | 'queue' = 'connection', promptFields: Record<string, unknown> = {}) {
  const w = await botWorld(on === 'queue' ? { queues: 1 } : {});
  const prompt = await w.app.prompts.createPrompt.execute({
    actor: w.admin,
    name: 'Atendente',
    prompt: 'You sell plants. Be brief.',
    apiKey: KEY,
    queueId: w.support.id,
    ...promptFields,
  });
  if (on === 'connection') {
    const connection = (await w.ports.connections.findById(w.acme.id, w.connection.id))!;
    await w.ports.connections.update({ ...connection, promptId: prompt.id });
  } else {
    await w.ports.queues.update({ ...(await w.ports.queues.findById(w.acme.id, w.sales.id))!, promptId: prompt.id });
  }
  const model = w.ports.languageModel;
  const handled = new Set<string>();
  /** The assistant commands written so far and not yet run. */
  const pending = () => w.ports.outbox.entries.filter((e) => e.subject === `cmd.prompt.answer.${w.acme.id}` && !handled.has(e.id));
  /** Runs every pending command, as the backend's consumer does, and answers their results. */
  const answerAll = async () => {
    const results = [];
    for (const entry of pending()) {
      handled.add(entry.id);
      results.push(await w.app.prompts.answerWithPrompt.execute(entry.payload as PromptAnswer));
    }
    return results;
  };
  return { ...w, prompt, model, pending, answerAll };
}

describe('Prompts: answering contacts', () => {
  it('answers each inbound message once, after the commit, with the instructions and the conversation so far, and counts the tokens', async () => {
    const w = await assistantWorld();
    await w.say('Olá, vocês têm samambaias?');
    expect(w.sent(), 'no greeting or menu: the assistant talks').to.deep.equal([]);
    expect(w.model.calls, 'the model is not called inside the inbound path').to.have.length(0);
    expect(w.pending()).to.have.length(1);
    expect(await w.answerAll()).to.deep.equal([{ outcome: 'answered' }]);
    expect(w.sent()).to.deep.equal(['echo: Olá, vocês têm samambaias?']);
    const [first] = w.model.calls;
    expect(first!.endpoint).to.deep.equal({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: KEY });
    expect(first!.request).to.include({ maxTokens: 100, temperature: 1 });
    expect(first!.request.messages[0]!.role).to.equal('system');
    expect(first!.request.messages[0]!.content).to.include('You sell plants. Be brief.').and.include('Carla').and.include(HANDOVER_PHRASE);
    expect(first!.request.messages.slice(1)).to.deep.equal([{ role: 'user', content: 'Olá, vocês têm samambaias?' }]);

    const again = await w.say('E o preço?');
    await w.answerAll();
    expect(w.model.calls[1]!.request.messages.slice(1)).to.deep.equal([
      { role: 'user', content: 'Olá, vocês têm samambaias?' },
      { role: 'assistant', content: 'echo: Olá, vocês têm samambaias?' },
      { role: 'user', content: 'E o preço?' },
    ]);
    const ticket = await w.ticket();
    expect(ticket).to.include({ status: 'pending', userId: null, botActive: true, queueId: null, lastMessage: 'echo: E o preço?' });
    const stored = (await w.ports.prompts.findById(w.acme.id, w.prompt.id))!;
    expect(stored).to.include({ promptTokens: 20, completionTokens: 10, totalTokens: 30 });

    // The same inbound message again (the provider repeated it) writes no second command; a redelivered command answers nothing.
    await w.app.conversations.routeInbound.execute(again);
    expect(w.pending()).to.have.length(0);
    const command = w.ports.outbox.entries.filter((e) => e.subject.startsWith('cmd.prompt.answer.')).at(-1)!.payload as PromptAnswer;
    expect(await w.app.prompts.answerWithPrompt.execute(command)).to.deep.equal({ outcome: 'duplicate' });
    expect(w.sent()).to.have.length(2);
    expect(w.model.calls).to.have.length(2);
    expect((await w.ports.promptAnswers.ofTicket(w.acme.id, ticket.id)).map((r) => r.outcome)).to.deep.equal(['answered', 'answered']);
  });

  it('two deliveries of one command racing give one answer', async () => {
    const w = await assistantWorld();
    await w.say('Oi');
    const command = w.pending()[0]!.payload as PromptAnswer;
    const results = await Promise.all([w.app.prompts.answerWithPrompt.execute(command), w.app.prompts.answerWithPrompt.execute(command)]);
    expect(results.map((r) => r.outcome).sort()).to.deep.equal(['answered', 'duplicate']);
    expect(w.sent()).to.deep.equal(['echo: Oi']);
    expect((await w.ports.prompts.findById(w.acme.id, w.prompt.id))!.totalTokens, 'the losing delivery counts no tokens').to.equal(15);
  });

  it('sends only the latest maxMessages of the conversation, private notes left out', async () => {
    const w = await assistantWorld('connection', { maxMessages: 2 });
    for (const text of ['um', 'dois', 'três']) {
      await w.say(text);
      await w.answerAll();
    }
    expect(w.model.calls.at(-1)!.request.messages.slice(1)).to.deep.equal([
      { role: 'assistant', content: 'echo: dois' },
      { role: 'user', content: 'três' },
    ]);
  });

  it("the hand-over phrase sends the rest of the answer and moves the ticket to the prompt's queue with the bot off; the assistant stops", async () => {
    const w = await assistantWorld();
    w.model.answer = () => `${HANDOVER_PHRASE}. Um momento, vou chamar uma pessoa.`;
    await w.say('Quero falar com alguém');
    expect(await w.answerAll()).to.deep.equal([{ outcome: 'handed-over', reason: 'ERR_PROMPT_HANDOVER_REQUESTED' }]);
    expect(w.sent()).to.deep.equal(['Um momento, vou chamar uma pessoa.']);
    expect(await w.ticket()).to.include({ status: 'pending', userId: null, queueId: w.support.id, botActive: false });
    const frames = w.ports.realtime.events.filter((e) => e.entity === 'ticket');
    expect(frames.at(-1)!.data).to.deep.include({ action: 'update' });
    await w.say('Alô?');
    expect(w.pending(), 'a handed-over ticket is not answered again').to.have.length(0);
    expect(w.model.calls).to.have.length(1);
  });

  it('with the model down, the ticket is handed to a person with the reason recorded, and nothing is sent', async () => {
    const w = await assistantWorld();
    w.model.down = true;
    await w.say('Oi');
    expect(await w.answerAll()).to.deep.equal([{ outcome: 'handed-over', reason: 'ERR_LANGUAGE_MODEL_UNAVAILABLE' }]);
    expect(w.sent()).to.deep.equal([]);
    const ticket = await w.ticket();
    expect(ticket).to.include({ queueId: w.support.id, botActive: false });
    expect((await w.ports.promptAnswers.ofTicket(w.acme.id, ticket.id))[0]).to.include({ outcome: 'handed-over', reason: 'ERR_LANGUAGE_MODEL_UNAVAILABLE' });
  });

  it('a person who takes the ticket while the model thinks keeps it: the answer is not sent', async () => {
    const w = await assistantWorld();
    await w.say('Oi');
    w.model.answer = () => {
      // The operator accepts while the model is answering.
      const t = w.ports.tickets.table.filter(() => true)[0]!;
      w.ports.tickets.table.replace({ ...t, status: 'open', userId: w.ana.userId });
      return 'Olá!';
    };
    expect(await w.answerAll()).to.deep.equal([{ outcome: 'skipped', reason: 'ERR_PROMPT_TICKET_TAKEN' }]);
    expect(w.sent()).to.deep.equal([]);
    expect((await w.ports.prompts.findById(w.acme.id, w.prompt.id))!.totalTokens, 'the tokens spent still count').to.equal(15);
  });

  it('a plan without AI hands the ticket over instead of calling the model', async () => {
    const w = await assistantWorld();
    await w.ports.plans.update({ ...(await w.ports.plans.findById(w.plan.id))!, features: { ...w.plan.features, ai: false } });
    await w.say('Oi');
    expect(await w.answerAll()).to.deep.equal([{ outcome: 'handed-over', reason: 'ERR_PLAN_FEATURE_DISABLED' }]);
    expect(w.model.calls).to.have.length(0);
  });

  it("a queue's assistant answers once the ticket is in the queue, after the queue's greeting", async () => {
    const w = await assistantWorld('queue');
    await w.say('Bom dia');
    expect(w.sent()).to.deep.equal(['Welcome!', 'Sales here.']);
    await w.answerAll();
    expect(w.sent()).to.deep.equal(['Welcome!', 'Sales here.', 'echo: Bom dia']);
    expect(await w.ticket()).to.include({ queueId: w.sales.id, botActive: true });
  });

  it("an inbound audio is transcribed first with the company's speech-to-text; without it, the ticket is handed over", async () => {
    const w = await assistantWorld();
    await w.say('Oi');
    await w.answerAll();
    const ticket = await w.ticket();
    const audio = async (n: number): Promise<PromptAnswer> => {
      const key = `public/company-${w.acme.id}/media/voice-${n}.ogg`;
      await w.ports.blobs.put(key, Buffer.alloc(100, n), 'audio/ogg');
      const last = [...w.ports.messages.rows.values()].at(-1)!;
      const message: Message = {
        ...last,
        id: `00000000-0000-4000-9000-00000000000${n}`,
        fromMe: false,
        body: '',
        userId: null,
        providerMessageId: `wamid-audio-${n}`,
        media: { key, url: `http://files.test/${key}`, contentType: 'audio/ogg; codecs=opus', filename: `voice-${n}.ogg`, size: 100 },
        createdAt: w.ports.clock.now(),
        updatedAt: w.ports.clock.now(),
        transcription: null,
        status: 'delivered',
      };
      await w.ports.messages.add(message);
      return { type: 'PromptAnswer', companyId: w.acme.id, ticketId: ticket.id, messageId: message.id, promptId: w.prompt.id };
    };
    const stt = w.ports.speechToText;
    stt.respond = async (call: SpeechToTextCall) => ({ text: `quero um cacto (${call.audio.filename})` });
    await w.app.transcription.createTranscriptionCredential.execute({ actor: w.admin, name: 'Whisper', apiKey: 'sk-test-0123456789' });
    expect(await w.app.prompts.answerWithPrompt.execute(await audio(1))).to.deep.equal({ outcome: 'answered' });
    expect(w.model.calls.at(-1)!.request.messages.at(-1)).to.deep.equal({ role: 'user', content: 'quero um cacto (voice-1.ogg)' });
    expect((await w.ports.messages.findById(w.acme.id, '00000000-0000-4000-9000-000000000001'))!.transcription).to.equal('quero um cacto (voice-1.ogg)');

    stt.respond = async () => {
      throw Object.assign(new Error('down'), { code: 'ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE' });
    };
    const result = await w.app.prompts.answerWithPrompt.execute(await audio(2));
    expect(result.outcome).to.equal('handed-over');
    expect(w.model.calls).to.have.length(2);
  });
});
