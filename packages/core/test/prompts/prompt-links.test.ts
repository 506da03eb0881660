import { expect } from 'chai';
import { createMessaging } from '../../src/compose/messaging.js';
import { createQueues } from '../../src/compose/queues.js';
import { code, ticketWorld } from '../messaging/ticket-world.js';

/** Acme's prompt and one of the other company's (both handing over to their own queue). */
async function linkWorld() {
  const w = await ticketWorld();
  const create = (actor = w.admin, queueId = w.sales.id) =>
    w.app.prompts.createPrompt.execute({ actor, name: 'Atendente', prompt: 'Answer politely.', apiKey: 'sk-proj-0123456789abcdef', queueId });
  const theirQueue = await w.app.queues.createQueue.execute({ actor: w.otherAdmin, name: 'Deles' });
  return { ...w, prompt: await create(), theirs: await create(w.otherAdmin, theirQueue.id) };
}

describe('Prompts: connections and queues point to one', () => {
  it("a connection takes one of its company's prompts on create and update, refuses another company's, and lets it go with null", async () => {
    const w = await linkWorld();
    const created = await w.app.connections.createConnection.execute({
      actor: w.admin,
      kind: 'chatapp',
      name: 'Vendas',
      provider: 'sandbox',
      promptId: w.prompt.id,
    });
    expect(created.promptId).to.equal(w.prompt.id);
    expect((await w.ports.connections.findById(w.acme.id, created.id))?.promptId).to.equal(w.prompt.id);
    expect((await w.app.connections.showConnection.execute({ actor: w.admin, connectionId: w.connection.id })).promptId).to.equal(null);
    expect(
      await code(w.app.connections.createConnection.execute({ actor: w.admin, kind: 'chatapp', name: 'X', provider: 'sandbox', promptId: w.theirs.id })),
    ).to.equal('ERR_NO_PROMPT_FOUND');

    const update = (promptId: number | null | undefined) =>
      w.app.connections.updateConnection.execute({ actor: w.admin, connectionId: w.connection.id, promptId });
    expect((await update(w.prompt.id)).promptId).to.equal(w.prompt.id);
    expect((await update(undefined)).promptId).to.equal(w.prompt.id);
    expect(await code(update(w.theirs.id))).to.equal('ERR_NO_PROMPT_FOUND');
    expect(await code(update(999_999))).to.equal('ERR_NO_PROMPT_FOUND');
    expect((await w.ports.connections.findById(w.acme.id, w.connection.id))?.promptId).to.equal(w.prompt.id);
    expect((await update(null)).promptId).to.equal(null);
    expect((await w.app.connections.showConnection.execute({ actor: w.admin, connectionId: w.connection.id })).promptId).to.equal(null);
  });

  it("a queue takes one of its company's prompts on create and update (absent keeps it), refuses another company's", async () => {
    const w = await linkWorld();
    const created = await w.app.queues.createQueue.execute({ actor: w.admin, name: 'Robô', promptId: w.prompt.id });
    expect(created.promptId).to.equal(w.prompt.id);
    expect((await w.app.queues.showQueue.execute({ actor: w.admin, queueId: w.sales.id })).promptId).to.equal(null);
    expect(await code(w.app.queues.createQueue.execute({ actor: w.admin, name: 'Outra', promptId: w.theirs.id }))).to.equal('ERR_NO_PROMPT_FOUND');

    const update = (promptId: number | null | undefined) => w.app.queues.updateQueue.execute({ actor: w.admin, queueId: w.support.id, promptId });
    expect((await update(w.prompt.id)).promptId).to.equal(w.prompt.id);
    expect((await w.app.queues.updateQueue.execute({ actor: w.admin, queueId: w.support.id, name: 'Suporte' })).promptId).to.equal(w.prompt.id);
    expect(await code(update(w.theirs.id))).to.equal('ERR_NO_PROMPT_FOUND');
    expect((await w.app.queues.showQueue.execute({ actor: w.admin, queueId: w.support.id })).promptId).to.equal(w.prompt.id);
    expect((await update(null)).promptId).to.equal(null);
  });

  it('a prompt a connection or a queue points to cannot be deleted (ERR_PROMPT_IN_USE) until they let it go', async () => {
    const w = await linkWorld();
    await w.app.connections.updateConnection.execute({ actor: w.admin, connectionId: w.connection.id, promptId: w.prompt.id });
    await w.app.queues.updateQueue.execute({ actor: w.admin, queueId: w.support.id, promptId: w.prompt.id });
    const remove = () => w.app.prompts.deletePrompt.execute({ actor: w.admin, promptId: w.prompt.id });
    expect(await code(remove())).to.equal('ERR_PROMPT_IN_USE');
    await w.app.connections.updateConnection.execute({ actor: w.admin, connectionId: w.connection.id, promptId: null });
    expect(await code(remove())).to.equal('ERR_PROMPT_IN_USE');
    await w.app.queues.updateQueue.execute({ actor: w.admin, queueId: w.support.id, promptId: null });
    expect(await code(remove())).to.equal('resolved');
    expect(w.ports.realtime.events.filter((e) => e.entity === 'prompt').map((e) => e.data.action)).to.deep.equal(['create', 'create', 'delete']);
    // Another company's prompt is still not found, in use or not.
    expect(await code(w.app.prompts.deletePrompt.execute({ actor: w.admin, promptId: w.theirs.id }))).to.equal('ERR_NO_PROMPT_FOUND');
  });

  it('composed without the prompts, connections and queues only accept promptId null', async () => {
    const w = await linkWorld();
    const messaging = createMessaging({ ...w.ports, prompts: undefined });
    const queues = createQueues({ ...w.ports, prompts: undefined });
    expect(await code(messaging.connections.updateConnection.execute({ actor: w.admin, connectionId: w.connection.id, promptId: w.prompt.id }))).to.equal(
      'ERR_NO_PROMPT_FOUND',
    );
    expect(await code(queues.updateQueue.execute({ actor: w.admin, queueId: w.support.id, promptId: w.prompt.id }))).to.equal('ERR_NO_PROMPT_FOUND');
    expect((await messaging.connections.updateConnection.execute({ actor: w.admin, connectionId: w.connection.id, promptId: null })).promptId).to.equal(null);
    expect((await queues.updateQueue.execute({ actor: w.admin, queueId: w.support.id, promptId: null })).promptId).to.equal(null);
  });
});
