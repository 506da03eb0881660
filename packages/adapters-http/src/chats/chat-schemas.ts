import { z } from 'zod';

/**
 * The internal-chat views as the API answers them (`ChatView` and `ChatMessageView` of
 * packages/core/src/chats), under the lineage client's names (`records`, `users[].unreads`,
 * `users[].user`, `sender`, `mediaPath`).
 */

const timestamp = z.iso.datetime();
const positive = z.number().int().positive();

const USER_EXAMPLE = { id: 7, name: 'Ana Souza', email: 'ana@loja.test' };
const CHAT_EXAMPLE = {
  id: 3,
  uuid: '6f1c0a52-3d2e-4b8a-9f10-2a4b5c6d7e8f',
  title: 'Plantão de sábado',
  ownerId: 7,
  lastMessage: 'Bia Lima: Cheguei!',
  companyId: 1,
  createdAt: '2025-03-01T12:00:00.000Z',
  updatedAt: '2025-03-01T12:05:00.000Z',
  owner: USER_EXAMPLE,
  users: [
    { chatId: 3, userId: 7, unreads: 1, user: USER_EXAMPLE },
    { chatId: 3, userId: 9, unreads: 0, user: { id: 9, name: 'Bia Lima', email: 'bia@loja.test' } },
  ],
};
const MESSAGE_EXAMPLE = {
  id: 41,
  chatId: 3,
  companyId: 1,
  senderId: 9,
  message: 'Cheguei!',
  mediaPath: null,
  mediaName: null,
  mediaType: null,
  createdAt: '2025-03-01T12:05:00.000Z',
  updatedAt: '2025-03-01T12:05:00.000Z',
  sender: { id: 9, name: 'Bia Lima' },
};

const chatUserSchema = z
  .object({
    id: positive.meta({ example: 7 }),
    name: z.string().meta({ example: 'Ana Souza' }),
    email: z.string().meta({ example: 'ana@loja.test' }),
  })
  .meta({ id: 'ChatUser', description: 'A user as a chat shows it', example: USER_EXAMPLE });

export const chatSchema = z
  .object({
    id: positive.meta({ example: 3 }),
    uuid: z.uuid().meta({ description: "Names the chat in the client's address (`/chats/<uuid>`); `GET /chats/:id` takes it too", example: CHAT_EXAMPLE.uuid }),
    title: z.string().min(1).max(255).meta({ example: 'Plantão de sábado' }),
    ownerId: positive.nullable().meta({ description: 'Who created it and alone may edit or delete it; null once that user was removed', example: 7 }),
    lastMessage: z
      .string()
      .meta({ description: '`<sender name>: <text>` of the latest message (a file\'s name for a file); `""` before the first', example: 'Bia Lima: Cheguei!' }),
    companyId: positive.meta({ example: 1 }),
    createdAt: timestamp.meta({ example: '2025-03-01T12:00:00.000Z' }),
    updatedAt: timestamp.meta({ description: "The latest activity (the list's order, newest first)", example: '2025-03-01T12:05:00.000Z' }),
    owner: chatUserSchema.nullable(),
    users: z
      .array(
        z.object({
          chatId: positive,
          userId: positive,
          unreads: z.number().int().min(0).meta({ description: 'Messages of the others this member has not read (their own never count)', example: 1 }),
          user: chatUserSchema,
        }),
      )
      .meta({ description: 'Every member, by user id, the owner included' }),
  })
  .meta({ id: 'Chat', description: "An internal chat with its members and each one's unread count", example: CHAT_EXAMPLE });

export const chatPageSchema = z
  .object({
    records: z.array(chatSchema),
    count: z.number().int().min(0).meta({ description: "How many of the caller's chats match in all", example: 1 }),
    hasMore: z.boolean().meta({ example: false }),
  })
  .meta({
    id: 'ChatPage',
    description: "A page (20) of the caller's chats, latest activity first",
    example: { records: [CHAT_EXAMPLE], count: 1, hasMore: false },
  });

export const chatMessageSchema = z
  .object({
    id: positive.meta({ example: 41 }),
    chatId: positive.meta({ example: 3 }),
    companyId: positive.meta({ example: 1 }),
    senderId: positive.nullable().meta({ description: "Null once the sender's user was removed", example: 9 }),
    message: z.string().meta({ description: 'The text; for a file, its caption or its name', example: 'Cheguei!' }),
    mediaPath: z.string().nullable().meta({ description: "The file's URL; null for a text", example: null }),
    mediaName: z.string().nullable().meta({ description: 'The name the file was sent with', example: null }),
    mediaType: z.enum(['image', 'audio', 'video', 'document']).nullable().meta({ description: 'How to show the file; null for a text', example: null }),
    createdAt: timestamp.meta({ example: '2025-03-01T12:05:00.000Z' }),
    updatedAt: timestamp.meta({ example: '2025-03-01T12:05:00.000Z' }),
    sender: z.object({
      id: positive.nullable(),
      name: z.string().meta({ description: '`""` once the sender\'s user was removed' }),
    }),
  })
  .meta({ id: 'ChatMessage', description: 'A message of an internal chat', example: MESSAGE_EXAMPLE });

export const chatMessagePageSchema = z
  .object({
    records: z.array(chatMessageSchema).meta({ description: 'Up to 20, in the order they were sent (the first page holds the newest)' }),
    count: z.number().int().min(0).meta({ description: 'Messages of the chat in all', example: 1 }),
    hasMore: z.boolean().meta({ description: 'Whether older pages follow', example: false }),
  })
  .meta({ id: 'ChatMessagePage', description: "A page of a chat's messages", example: { records: [MESSAGE_EXAMPLE], count: 1, hasMore: false } });
