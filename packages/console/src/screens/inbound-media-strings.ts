import type { ScreenStrings } from '../i18n/screen-strings.js';

/** The texts of a contact's file on its way (`inbound-media.tsx`): received, or why it could not be. */
const en = {
  receiving: 'Receiving {{name}}…',
  failed: '{{name}} could not be received: {{reason}}',
  unknown: 'the channel did not give it',
  codes: {
    ERR_MEDIA_TOO_LARGE: 'it is larger than this server keeps.',
    ERR_MEDIA_EMPTY: 'the channel sent an empty file.',
    ERR_MEDIA_TYPE_NOT_ALLOWED: 'it was not the kind of file the message said.',
    ERR_MEDIA_NOT_FOUND: 'the channel no longer has it. Ask the contact to send it again.',
    ERR_MEDIA_REFUSED: "the channel refused to give it. Check the connection's token.",
    ERR_MEDIA_UNAVAILABLE: 'the channel did not answer. Ask the contact to send it again.',
    ERR_MEDIA_UNREADABLE: 'it could not be decrypted. Ask the contact to send it again.',
    ERR_MEDIA_NOT_SUPPORTED: 'this server cannot fetch files from this channel.',
  },
};

export const inboundMediaStrings: ScreenStrings<typeof en> = {
  en,
  'pt-BR': {
    receiving: 'Recebendo {{name}}…',
    failed: 'Não foi possível receber {{name}}: {{reason}}',
    unknown: 'o canal não o entregou',
    codes: {
      ERR_MEDIA_TOO_LARGE: 'é maior do que este servidor guarda.',
      ERR_MEDIA_EMPTY: 'o canal enviou um arquivo vazio.',
      ERR_MEDIA_TYPE_NOT_ALLOWED: 'não era o tipo de arquivo que a mensagem dizia.',
      ERR_MEDIA_NOT_FOUND: 'o canal já não o tem. Peça ao contato que o envie de novo.',
      ERR_MEDIA_REFUSED: 'o canal recusou entregá-lo. Verifique o token da conexão.',
      ERR_MEDIA_UNAVAILABLE: 'o canal não respondeu. Peça ao contato que o envie de novo.',
      ERR_MEDIA_UNREADABLE: 'não foi possível decifrá-lo. Peça ao contato que o envie de novo.',
      ERR_MEDIA_NOT_SUPPORTED: 'este servidor não busca arquivos deste canal.',
    },
  },
  es: {
    receiving: 'Recibiendo {{name}}…',
    failed: 'No se pudo recibir {{name}}: {{reason}}',
    unknown: 'el canal no lo entregó',
    codes: {
      ERR_MEDIA_TOO_LARGE: 'es más grande de lo que este servidor guarda.',
      ERR_MEDIA_EMPTY: 'el canal envió un archivo vacío.',
      ERR_MEDIA_TYPE_NOT_ALLOWED: 'no era el tipo de archivo que decía el mensaje.',
      ERR_MEDIA_NOT_FOUND: 'el canal ya no lo tiene. Pida al contacto que lo envíe de nuevo.',
      ERR_MEDIA_REFUSED: 'el canal se negó a entregarlo. Revise el token de la conexión.',
      ERR_MEDIA_UNAVAILABLE: 'el canal no respondió. Pida al contacto que lo envíe de nuevo.',
      ERR_MEDIA_UNREADABLE: 'no se pudo descifrar. Pida al contacto que lo envíe de nuevo.',
      ERR_MEDIA_NOT_SUPPORTED: 'este servidor no obtiene archivos de este canal.',
    },
  },
};

export const INBOUND_MEDIA_NS = 'inboundMedia';
