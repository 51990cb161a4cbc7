import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useConsoleT } from '../lib/console-context';

interface SortableItem {
  id: number;
}

/**
 * A list reordered by dragging a row's handle, or from the keyboard: ↑ / ↓ on the focused
 * handle, or Alt + ↑ / ↓ anywhere in the row. Each move is announced to screen readers and
 * focus stays on the moved row's handle. `onMove` gets the item and its new index; the list
 * shows the new order at once (the caller keeps or reverts it).
 */
export function SortableList<T extends SortableItem>({
  items,
  nameOf,
  onMove,
  renderItem,
  label,
  className = '',
}: {
  items: readonly T[];
  nameOf: (item: T) => string;
  onMove: (item: T, index: number) => void;
  renderItem: (item: T) => ReactNode;
  label: string;
  className?: string;
}) {
  const t = useConsoleT();
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const focusAfterMove = useRef<number | null>(null);
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (focusAfterMove.current === null) return;
    const handle = listRef.current?.querySelector<HTMLButtonElement>(
      `[data-sortable-handle="${focusAfterMove.current}"]`,
    );
    handle?.focus();
    focusAfterMove.current = null;
  }, [items]);

  const move = (item: T, index: number) => {
    const from = items.findIndex((candidate) => candidate.id === item.id);
    if (index < 0 || index >= items.length || index === from) return;
    focusAfterMove.current = item.id;
    setAnnouncement(t('console.groups.moved', { name: nameOf(item), position: index + 1 }));
    onMove(item, index);
  };

  const onKey = (event: KeyboardEvent, item: T, index: number, onHandle: boolean) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    if (!onHandle && !event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    move(item, event.key === 'ArrowUp' ? index - 1 : index + 1);
  };

  return (
    <>
      <ol ref={listRef} className={`sortable ${className}`} aria-label={label}>
        {items.map((item, index) => (
          <li
            key={item.id}
            className={`sortable__row${dragged === item.id ? ' sortable__row--dragged' : ''}${over === item.id && dragged !== item.id ? ' sortable__row--over' : ''}`}
            data-sortable-id={item.id}
            onKeyDown={(event) => onKey(event, item, index, false)}
            onDragOver={(event) => {
              if (dragged === null || !items.some((candidate) => candidate.id === dragged)) return;
              event.preventDefault();
              event.stopPropagation();
              setOver(item.id);
            }}
            onDragLeave={() => setOver((current) => (current === item.id ? null : current))}
            onDrop={(event) => {
              const moving = items.find((candidate) => candidate.id === dragged);
              if (!moving) return;
              event.preventDefault();
              event.stopPropagation();
              setDragged(null);
              setOver(null);
              move(moving, index);
            }}
          >
            <button
              type="button"
              className="sortable__handle"
              draggable
              data-sortable-handle={item.id}
              aria-label={t('console.groups.dragHandle', { name: nameOf(item) })}
              aria-describedby="sortable-help"
              onKeyDown={(event) => onKey(event, item, index, true)}
              onDragStart={(event) => {
                event.stopPropagation();
                event.dataTransfer.effectAllowed = 'move';
                event.dataTransfer.setData('text/plain', String(item.id));
                const row = event.currentTarget.closest('li');
                if (row) event.dataTransfer.setDragImage(row, 16, 16);
                setDragged(item.id);
              }}
              onDragEnd={() => {
                setDragged(null);
                setOver(null);
              }}
            >
              <svg viewBox="0 0 12 18" width="10" height="16" aria-hidden="true" focusable="false">
                {[3, 9, 15].flatMap((y) => [
                  <circle key={`a${y}`} cx="3" cy={y} r="1.5" fill="currentColor" />,
                  <circle key={`b${y}`} cx="9" cy={y} r="1.5" fill="currentColor" />,
                ])}
              </svg>
            </button>
            <div className="sortable__body">{renderItem(item)}</div>
          </li>
        ))}
      </ol>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}
