import type { ContentBlock } from '../../../server/shared/content-blocks';
import type { MessageKey } from '../../../i18n';
import { useConsoleT } from '../lib/console-context';

type BlockType = ContentBlock['type'];

const BLOCK_TYPES: Record<BlockType, MessageKey> = {
  heading: 'console.block.heading',
  paragraph: 'console.block.paragraph',
  list: 'console.block.list',
  qa: 'console.block.qa',
  video: 'console.block.video',
};

/** A new block of a type, empty: the API refuses it until it is filled in. */
export function emptyBlock(type: BlockType): ContentBlock {
  switch (type) {
    case 'heading':
      return { type, text: '' };
    case 'paragraph':
      return { type, text: '' };
    case 'list':
      return { type, items: [''] };
    case 'qa':
      return { type, question: '', answer: '' };
    case 'video':
      return { type, title: '', poster: '' };
  }
}

function TextField({
  id,
  label,
  value,
  onChange,
  rows,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  rows?: number;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {rows ? (
        <textarea id={id} rows={rows} value={value} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input id={id} value={value} onChange={(event) => onChange(event.target.value)} />
      )}
    </div>
  );
}

/** The fields of one block, by its type. */
function BlockFields({
  id,
  block,
  onChange,
}: {
  id: string;
  block: ContentBlock;
  onChange: (next: ContentBlock) => void;
}) {
  const t = useConsoleT();
  switch (block.type) {
    case 'heading':
      return (
        <TextField
          id={`${id}-text`}
          label={t('console.block.text')}
          value={block.text}
          onChange={(text) => onChange({ ...block, text })}
        />
      );
    case 'paragraph':
      return (
        <TextField
          id={`${id}-text`}
          label={t('console.block.text')}
          rows={4}
          value={block.text}
          onChange={(text) => onChange({ ...block, text })}
        />
      );
    case 'list':
      return (
        <div className="field">
          <label htmlFor={`${id}-items`}>{t('console.block.items')}</label>
          <textarea
            id={`${id}-items`}
            rows={4}
            value={block.items.join('\n')}
            aria-describedby={`${id}-items-hint`}
            onChange={(event) => onChange({ ...block, items: event.target.value.split('\n') })}
          />
          <p className="field__hint" id={`${id}-items-hint`}>
            {t('console.content.itemsHint')}
          </p>
        </div>
      );
    case 'qa':
      return (
        <>
          <TextField
            id={`${id}-question`}
            label={t('console.block.question')}
            value={block.question}
            onChange={(question) => onChange({ ...block, question })}
          />
          <TextField
            id={`${id}-answer`}
            label={t('console.block.answer')}
            rows={3}
            value={block.answer}
            onChange={(answer) => onChange({ ...block, answer })}
          />
        </>
      );
    case 'video':
      return (
        <>
          <TextField
            id={`${id}-title`}
            label={t('console.block.videoTitle')}
            value={block.title}
            onChange={(title) => onChange({ ...block, title })}
          />
          <TextField
            id={`${id}-poster`}
            label={t('console.block.poster')}
            value={block.poster}
            onChange={(poster) => onChange({ ...block, poster })}
          />
          <div className="pair">
            <TextField
              id={`${id}-src`}
              label={t('console.block.src')}
              value={block.src ?? ''}
              onChange={(src) => onChange({ ...block, src: src || undefined })}
            />
            <TextField
              id={`${id}-duration`}
              label={t('console.block.duration')}
              value={block.duration ?? ''}
              onChange={(duration) => onChange({ ...block, duration: duration || undefined })}
            />
          </div>
        </>
      );
  }
}

/** One block in the editor's list: its type, its fields, and moving or removing it. */
export function BlockEditor({
  id,
  index,
  count,
  block,
  onChange,
  onMove,
  onRemove,
}: {
  id: string;
  index: number;
  count: number;
  block: ContentBlock;
  onChange: (next: ContentBlock) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const t = useConsoleT();
  const label = t('console.content.block', { n: index + 1 });
  return (
    <li className="block-card" aria-label={label}>
      <div className="block-card__head">
        <label className="block-card__type">
          <span className="sr-only">
            {label}: {t('console.block.type')}
          </span>
          <select value={block.type} onChange={(event) => onChange(emptyBlock(event.target.value as BlockType))}>
            {(Object.keys(BLOCK_TYPES) as BlockType[]).map((type) => (
              <option key={type} value={type}>
                {t(BLOCK_TYPES[type])}
              </option>
            ))}
          </select>
        </label>
        <div className="block-card__tools">
          <button type="button" className="button button--small" disabled={index === 0} onClick={() => onMove(-1)}>
            <span aria-hidden="true">↑</span>
            <span className="sr-only">
              {label}: {t('console.content.moveUp')}
            </span>
          </button>
          <button
            type="button"
            className="button button--small"
            disabled={index === count - 1}
            onClick={() => onMove(1)}
          >
            <span aria-hidden="true">↓</span>
            <span className="sr-only">
              {label}: {t('console.content.moveDown')}
            </span>
          </button>
          <button type="button" className="button button--small" onClick={onRemove}>
            {t('console.content.remove')}
            <span className="sr-only"> {label}</span>
          </button>
        </div>
      </div>
      <BlockFields id={id} block={block} onChange={onChange} />
    </li>
  );
}
