import { Popover } from 'radix-ui';
import { type KeyboardEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SmileIcon } from '../ui/reply-icons.js';

/** Common emoji, bundled: nothing is downloaded to show them (the system's font draws them). */
export const EMOJI = [
  '😀',
  '😃',
  '😄',
  '😁',
  '😅',
  '😂',
  '🙂',
  '😉',
  '😊',
  '😍',
  '😘',
  '🤗',
  '🤔',
  '😐',
  '😴',
  '😢',
  '😭',
  '😡',
  '😱',
  '🥳',
  '😎',
  '🙏',
  '👍',
  '👎',
  '👏',
  '🙌',
  '👋',
  '🤝',
  '💪',
  '✌️',
  '👌',
  '❤️',
  '💔',
  '🔥',
  '⭐',
  '✨',
  '🎉',
  '🎁',
  '✅',
  '❌',
  '⚠️',
  '❓',
  '📦',
  '🚚',
  '📞',
  '📅',
  '⏰',
  '💰',
] as const;
const COLUMNS = 8;

/**
 * A button opening a grid of emoji (a Radix popover): arrows, Home and End move between them,
 * Enter or a click inserts one where the caret was (`onPick`), Escape closes.
 */
export function EmojiPicker({ onPick }: { onPick: (emoji: string) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [focused, setFocused] = useState(0);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);
  const picked = useRef(false);

  const move = (to: number) => {
    const next = Math.max(0, Math.min(EMOJI.length - 1, to));
    setFocused(next);
    buttons.current[next]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const steps: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS };
    if (e.key in steps) move(focused + steps[e.key]!);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(EMOJI.length - 1);
    else return;
    e.preventDefault();
  };

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) picked.current = false;
      }}
    >
      <Popover.Trigger asChild>
        <button type="button" aria-label={t('reply.emoji.open')} title={t('reply.emoji.open')} data-testid="emoji-button">
          <SmileIcon />
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="emoji-popover"
          side="top"
          align="start"
          sideOffset={6}
          aria-label={t('reply.emoji.label')}
          onOpenAutoFocus={(e) => {
            e.preventDefault();
            buttons.current[focused]?.focus();
          }}
          // After a pick the reply box takes the focus back (the caret after the emoji), not this button.
          onCloseAutoFocus={(e) => {
            if (picked.current) e.preventDefault();
          }}
        >
          <fieldset className="emoji-grid" onKeyDown={onKeyDown}>
            <legend className="visually-hidden">{t('reply.emoji.label')}</legend>
            {EMOJI.map((emoji, i) => (
              <button
                key={emoji}
                ref={(el) => {
                  buttons.current[i] = el;
                }}
                type="button"
                className="emoji"
                tabIndex={i === focused ? 0 : -1}
                onFocus={() => setFocused(i)}
                onClick={() => {
                  picked.current = true;
                  setOpen(false);
                  onPick(emoji);
                }}
              >
                {emoji}
              </button>
            ))}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
