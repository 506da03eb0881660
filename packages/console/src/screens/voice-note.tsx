import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MicIcon } from '../ui/reply-icons.js';

/** What the browser records in, best first: Ogg/Opus is what chat apps play as a voice note. */
const TYPES = ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/webm', 'audio/mp4'];

type Problem = 'unsupported' | 'denied' | 'noMicrophone' | 'failed';
type Take = { file: File; url: string };

function recordingType(): string | null {
  if (typeof MediaRecorder === 'undefined' || !navigator.mediaDevices?.getUserMedia) return null;
  return TYPES.find((type) => MediaRecorder.isTypeSupported(type)) ?? '';
}

function problemOf(err: unknown): Problem {
  const name = err instanceof DOMException || err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'noMicrophone';
  return 'failed';
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;

/**
 * A voice note: recorded in the browser (MediaRecorder), the time shown while it records, stopped,
 * heard again, then sent as an audio file (`onSend`) or thrown away. A refused microphone or a
 * browser that cannot record says so.
 */
export function VoiceNote({ onSend, disabled }: { onSend: (file: File) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'asking' | 'recording' | 'recorded'>('idle');
  const [problem, setProblem] = useState<Problem | null>(null);
  const [seconds, setSeconds] = useState(0);
  const [take, setTake] = useState<Take | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const keep = useRef(true);

  // Leaving the conversation stops the microphone and frees the recording.
  useEffect(
    () => () => {
      keep.current = false;
      if (recorder.current?.state === 'recording') recorder.current.stop();
    },
    [],
  );
  useEffect(() => () => (take ? URL.revokeObjectURL(take.url) : undefined), [take]);
  useEffect(() => {
    if (state !== 'recording') return;
    const started = Date.now();
    setSeconds(0);
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 250);
    return () => clearInterval(timer);
  }, [state]);

  const start = async () => {
    setProblem(null);
    const type = recordingType();
    if (type === null) {
      setProblem('unsupported');
      return;
    }
    setState('asking');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      setProblem(problemOf(err));
      setState('idle');
      return;
    }
    const chunks: Blob[] = [];
    const rec = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    rec.ondataavailable = (e) => {
      if (e.data.size) chunks.push(e.data);
    };
    rec.onstop = () => {
      for (const track of stream.getTracks()) track.stop();
      recorder.current = null;
      if (!keep.current) {
        keep.current = true;
        setState('idle');
        return;
      }
      const mime = (rec.mimeType || type || 'audio/webm').split(';')[0]!;
      const blob = new Blob(chunks, { type: mime });
      if (!blob.size) {
        setProblem('failed');
        setState('idle');
        return;
      }
      const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
      const extension = mime.includes('ogg') ? 'ogg' : mime.includes('mp4') ? 'm4a' : 'webm';
      const file = new File([blob], `voice-${stamp}.${extension}`, { type: mime });
      setTake({ file, url: URL.createObjectURL(blob) });
      setState('recorded');
    };
    rec.onerror = () => setProblem('failed');
    recorder.current = rec;
    keep.current = true;
    rec.start(250);
    setState('recording');
  };
  const stop = (keepIt: boolean) => {
    keep.current = keepIt;
    recorder.current?.stop();
  };
  const discard = () => {
    setTake(null);
    setState('idle');
  };
  const send = () => {
    if (!take) return;
    onSend(take.file);
    discard();
  };

  return (
    <div className="voice-note" data-testid="voice-note">
      {state === 'idle' || state === 'asking' ? (
        <button
          type="button"
          onClick={() => void start()}
          disabled={disabled || state === 'asking'}
          aria-label={t('reply.voice.record')}
          title={t('reply.voice.record')}
        >
          <MicIcon />
        </button>
      ) : state === 'recording' ? (
        <>
          <span className="recording" role="timer" aria-label={t('reply.voice.elapsed', { time: clock(seconds) })}>
            <span aria-hidden="true" className="rec-dot" /> {clock(seconds)}
          </span>
          <button type="button" onClick={() => stop(true)}>
            {t('reply.voice.stop')}
          </button>
          <button type="button" onClick={() => stop(false)}>
            {t('reply.voice.discard')}
          </button>
        </>
      ) : (
        take && (
          <>
            {/* biome-ignore lint/a11y/useMediaCaption: the operator's own recording, heard before sending; it has no captions */}
            <audio src={take.url} controls aria-label={t('reply.voice.preview')} />
            <button type="button" className="primary" onClick={send} disabled={disabled}>
              {t('reply.voice.send')}
            </button>
            <button type="button" onClick={discard}>
              {t('reply.voice.discard')}
            </button>
          </>
        )
      )}
      {problem && (
        <p className="form-error" role="alert">
          {t(`reply.voice.${problem}`)}
        </p>
      )}
    </div>
  );
}
